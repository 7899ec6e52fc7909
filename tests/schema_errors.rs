//! The error catalogue: one small schema per class of mistake in `tests/fixtures/errors/`,
//! the number of errors it must give, and an insta snapshot of the rendered diagnostics.

use std::fs;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errors")
}

fn read_fixture(name: &str) -> String {
    let path = fixture_dir().join(format!("{name}.toml"));
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Loads fixture `name`, checks that it fails with `count` errors, each rendered as
/// `schema.toml:LINE:COL: error:`, and snapshots the rendering.
fn check(name: &str, count: usize) {
    let src = read_fixture(name);
    let errors = match abi_codegen::load_schema(&src) {
        Ok(_) => panic!("{name}.toml loaded without errors"),
        Err(e) => e,
    };
    let rendered = errors.render("schema.toml", &src);
    assert_eq!(
        errors.list.len(),
        count,
        "{name}.toml: expected {count} errors, got:\n{rendered}"
    );
    let headers: Vec<&str> = rendered
        .lines()
        .filter(|l| l.starts_with("schema.toml:"))
        .collect();
    assert_eq!(headers.len(), count, "{rendered}");
    for (header, d) in headers.iter().zip(&errors.list) {
        let (line, col) = abi_codegen::testing::diagnostics::line_col(&src, d.span.start);
        let expected = format!("schema.toml:{line}:{col}: error: {}", d.message);
        assert_eq!(*header, expected);
        assert!(
            d.span.start <= d.span.end && d.span.end <= src.len(),
            "{name}.toml: span {:?} out of range for {header}",
            d.span
        );
    }
    // Errors come sorted by position.
    let starts: Vec<usize> = errors.list.iter().map(|d| d.span.start).collect();
    assert!(starts.is_sorted(), "{name}.toml: errors out of order");
    insta::assert_snapshot!(name, rendered);
}

/// Checks that `needle` is the text the first error's span covers.
fn points_at(name: &str, needle: &str) {
    let src = read_fixture(name);
    let errors = abi_codegen::load_schema(&src).expect_err("the fixture has errors");
    let d = &errors.list[0];
    assert_eq!(&src[d.span.clone()], needle, "{name}.toml");
}

macro_rules! error_classes {
    ($($name:ident => $count:expr,)*) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name), $count);
            }
        )*

        /// Every class above, for the whole-catalogue tests.
        const CLASSES: &[&str] = &[$(stringify!($name)),*];
    };
}

error_classes! {
    // Names and types.
    unknown_type => 1,
    type_is_constant => 1,
    duplicate_type_and_constant => 1,
    duplicate_struct => 1,
    duplicate_field => 1,
    duplicate_enum_value => 1,
    builtin_type_name => 1,
    reserved_constant_name => 1,
    type_name_not_snake_case => 1,
    field_name_not_snake_case => 1,
    value_name_not_snake_case => 1,
    name_not_ascii => 1,
    converted_name_collision_macro => 1,
    converted_name_collision_type => 1,
    char_without_length => 1,
    array_of_arrays => 1,
    // Enum and flag values.
    enum_value_too_big => 1,
    enum_value_negative_unsigned => 1,
    enum_without_values => 1,
    flag_not_a_bit => 1,
    flags_overlap => 1,
    flags_signed_repr => 1,
    flags_ordered => 1,
    ordered_enum_not_rising => 1,
    // Constants and array lengths.
    array_len_zero => 1,
    array_len_unknown_constant => 1,
    array_len_expression => 1,
    array_len_constant_negative => 1,
    array_len_constant_zero => 1,
    const_array_len_with_type => 1,
    const_expr_unknown_name => 1,
    const_expr_division_by_zero => 1,
    const_expr_syntax => 1,
    const_failed_used_once => 1,
    const_type_not_integer => 1,
    const_value_out_of_type => 1,
    // Layout.
    struct_contains_itself => 1,
    struct_cycle => 1,
    gap_between_fields => 1,
    tail_padding => 1,
    tail_pad_oversized => 1,
    tail_pad_moved => 1,
    enum_repr_narrowed => 1,
    size_mismatch => 1,
    align_mismatch => 1,
    align_not_power_of_two => 1,
    empty_struct => 1,
    extensible_embedded => 1,
    field_too_big => 1,
    field_offset_overflow => 1,
    // The [abi] header and versions.
    byte_order_big => 1,
    bad_c_prefix => 1,
    bad_abi_version => 1,
    abi_version_too_big => 1,
    version_policy_unknown => 1,
    since_later_than_abi => 1,
    since_not_a_version => 1,
    // TOML and keys.
    toml_syntax => 1,
    toml_inline_table_unclosed => 1,
    unknown_key_struct => 1,
    unknown_key_field => 1,
    unknown_key_abi => 1,
    missing_key => 1,
    missing_abi_key => 1,
    wrong_value_kind => 1,
    single_bracket_item => 1,
    single_bracket_after_array => 1,
    empty_schema => 1,
    toml11_trailing_comma => 1,
    toml11_inline_newline => 1,
    toml11_escape => 2,
    // Shared-memory access.
    access_unknown => 1,
    atomic_float => 1,
    atomic_array => 1,
    cas_word_size => 1,
    cas_misaligned => 1,
    cas_struct_underaligned => 1,
    access_unshared => 1,
    party_unknown => 1,
    parties_undeclared => 1,
    party_duplicate => 1,
    count_unknown_field => 1,
    count_names_a_struct => 1,
    seqlock_counter_not_atomic => 1,
    seqlock_counter_beside_the_atomic => 1,
    seqlock_counter_not_unsigned => 1,
    seqlock_counter_path => 1,
    seqlock_unknown_field => 1,
    seqlock_unknown_guard => 1,
    seqlock_guards_atomic => 1,
    seqlock_guarded_twice => 1,
    seqlock_writer_mismatch => 1,
    seqlock_counter_shared => 1,
    seqlock_in_copied_struct => 1,
    seqlock_duplicate => 1,
    seqlock_name_collision => 1,
    live_name_is_an_import => 2,
    trailer_misaligned => 1,
    trailer_unknown_type => 1,
    trailer_size_field => 1,
    ring_unknown_kind => 1,
    ring_missing_key => 1,
    // Protocols: queues, broadcast rings, mailboxes, exchanges and sessions.
    protocol_broadcast_without_seq => 1,
    protocol_duplicate_name => 1,
    protocol_type_name_taken => 1,
    protocol_shared_header => 1,
    protocol_entry_field_past_first_word => 2,
    protocol_entry_same_values => 1,
    protocol_entry_unknown_value => 1,
    protocol_field_not_atomic => 1,
    protocol_field_not_cas => 1,
    protocol_field_wrong_type => 1,
    protocol_initial_state => 1,
    protocol_missing_key => 1,
    protocol_overflow_not_flag => 1,
    protocol_part_past_its_length => 1,
    protocol_part_name => 2,
    protocol_queue_with_seq => 1,
    protocol_same_party => 1,
    protocol_session_bind_not_cas => 1,
    protocol_session_bind_without_unbound => 1,
    protocol_session_hung_too_soon => 1,
    protocol_session_hung_too_long => 1,
    protocol_session_table_not_rows => 1,
    protocol_session_host_words_elsewhere => 3,
    event_half_not_low => 1,
    event_name_pid_without_handshake => 1,
    event_name_unknown_placeholder => 1,
    event_name_without_mapping => 1,
    event_name_without_row => 1,
    event_rows_not_array => 1,
    event_stats_bad_fields => 3,
    event_stats_guarded => 1,
    event_waiter_is_setter => 1,
    event_wake_stats_name => 1,
    event_word_8_bytes_without_half => 1,
    event_word_not_4_bytes => 1,
    event_word_not_atomic => 1,
    event_word_not_setters => 1,
    event_word_unknown => 1,
    protocol_directory_bad_mapping => 1,
    protocol_directory_entries_not_rows => 1,
    protocol_directory_free_not_zero => 1,
    protocol_directory_magic_without_expect => 1,
    protocol_directory_state_not_cas => 1,
    protocol_directory_state_pid_apart => 1,
    protocol_directory_version_not_char => 1,
    protocol_unknown_field => 1,
    protocol_unknown_party => 1,
    protocol_unknown_struct => 1,
    ring_stray_key => 1,
    ring_slot_too_small => 1,
    ring_publish_seq_wrong_type => 1,
    ring_publish_seq_not_guarded => 1,
    ring_payload_unsized => 1,
    ring_events_not_array => 1,
    ring_unknown_seqlock => 1,
    c_live_macro_collision => 2,
    c_attach_macro_collision => 1,
    // Attach: version handshakes and layout tables.
    version_not_extensible => 1,
    version_unknown_field => 1,
    version_not_unsigned => 1,
    version_identity_wrong_type => 1,
    version_magic_without_expect => 1,
    version_field_past_base => 1,
    version_field_order => 1,
    version_state_without_running => 1,
    version_running_unknown => 1,
    geometry_unknown_name => 1,
    geometry_not_unsigned => 1,
    geometry_not_shared => 1,
    geometry_declared_twice => 1,
    geometry_area_in_header => 1,
    layout_unknown_header => 1,
    layout_table_not_array => 1,
    layout_row_struct_fields => 2,
    layout_unknown_index => 1,
    layout_row_unknown_name => 1,
    layout_row_not_in_enum => 1,
    layout_row_duplicate => 1,
    layout_row_missing => 1,
    layout_row_two_kinds => 1,
    layout_row_stray_key => 1,
    layout_row_nothing => 1,
    layout_row_unknown_ring => 1,
    layout_row_bad_bytes => 1,
    layout_row_past_table => 1,
    layout_overlaps_unknown => 1,
    layout_blocks_missing_stride => 1,
    layout_owner_not_session => 1,
    layout_nested_too_deep => 1,
    layout_too_many_rows => 1,
    layout_owner_not_root => 1,
    layout_owner_not_blocks => 1,
    layout_blocks_stride_misaligned => 1,
    layout_blocks_cycle => 1,
    layout_root_without_handshake => 1,
    layout_two_roots => 1,
    layout_duplicate => 1,
    layout_name_collision => 1,
    layout_row_reserved_name => 1,
    // File formats ([[file]]).
    file_name_taken => 1,
    file_name_not_snake_case => 1,
    file_record_name_not_snake_case => 1,
    file_record_unknown_struct => 1,
    file_record_two_places => 1,
    file_record_unknown_record => 1,
    file_at_many_copies => 1,
    file_zlib_missing_stored => 1,
    file_field_not_unsigned => 1,
    file_total_sum_and_count => 1,
    file_after_zlib_record => 1,
    file_encoding_needs_data => 1,
    file_encoding_kind_not_enum => 1,
    file_encoding_unknown_kind => 2,
    file_encoding_no_plain => 1,
    file_encoding_restart => 1,
    file_encoding_same_syntax => 2,
    file_seek_one_bound => 1,
    file_indexed_needs_index => 1,
    file_indexed_syntax => 2,
    // User templates.
    template_output_outside => 1,
    template_output_builtin => 1,
    template_output_duplicate => 1,
    template_path_empty => 1,
    // Mistakes pile up and are reported together, by line.
    several_errors => 5,
}

#[test]
fn every_fixture_is_a_class() {
    let mut files: Vec<String> = fs::read_dir(fixture_dir())
        .expect("the fixture folder exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let mut classes: Vec<String> = CLASSES.iter().map(|c| format!("{c}.toml")).collect();
    classes.sort();
    assert_eq!(
        files, classes,
        "each fixture needs its line in error_classes!"
    );
    assert!(CLASSES.len() >= 25);
}

/// The mistakes the snapshots show must also be where the caret is, for the classes
/// whose position matters most.
#[test]
fn errors_point_at_the_offending_text() {
    points_at("unknown_type", "pointt");
    points_at("type_is_constant", "max_items");
    points_at("duplicate_field", "x");
    points_at(
        "gap_between_fields",
        r#"{ name = "waiting", type = "u32" }"#,
    );
    points_at("tail_padding", r#"{ name = "value", type = "u32" }"#);
    points_at("size_mismatch", "12");
    points_at("unknown_key_struct", "sise");
    points_at("unknown_key_field", "dco");
    points_at("array_len_constant_zero", "0");
    points_at("converted_name_collision_macro", "playing");
    points_at("struct_cycle", "parent");
    points_at("since_later_than_abi", "0.4");
    points_at("byte_order_big", "big");
    points_at("version_policy_unknown", "semver");
    points_at("access_unknown", "atomc");
    points_at("cas_misaligned", "cas");
    points_at("party_unknown", "hots");
    points_at("seqlock_unknown_field", "sqe");
    points_at("seqlock_guarded_twice", "def_count");
    points_at("ring_slot_too_small", "ring_slot_size");
}

#[test]
fn gap_error_names_the_padding_to_declare() {
    let src = read_fixture("gap_between_fields");
    let rendered = abi_codegen::load_schema(&src)
        .expect_err("the gap is an error")
        .render("schema.toml", &src);
    assert!(rendered.contains("3-byte gap before field `waiting` at offset 0x21 (33)"));
    assert!(rendered.contains(r#"declare "_pad33: u8[3]" before "waiting""#));
}

#[test]
fn unknown_keys_name_the_struct_and_field() {
    let src = read_fixture("unknown_key_field");
    let errors = abi_codegen::load_schema(&src).expect_err("unknown key");
    assert!(
        errors.list[0]
            .message
            .starts_with("struct `point`, field `y`: unknown key `dco`"),
        "{}",
        errors.list[0].message
    );
    let src = read_fixture("unknown_key_struct");
    let errors = abi_codegen::load_schema(&src).expect_err("unknown key");
    assert!(
        errors.list[0]
            .message
            .starts_with("struct `point`: unknown key `sise`")
    );
    assert_eq!(errors.list[0].help.as_deref(), Some("did you mean `size`?"));
}

#[test]
fn several_errors_come_sorted_by_line() {
    let src = read_fixture("several_errors");
    let errors = abi_codegen::load_schema(&src).expect_err("five mistakes");
    let lines: Vec<usize> = errors
        .list
        .iter()
        .map(|d| abi_codegen::testing::diagnostics::line_col(&src, d.span.start).0)
        .collect();
    assert_eq!(lines, [12, 16, 22, 23, 24]);
}

/// Loads `src` and renders any errors, failing the test on a panic instead of aborting it.
fn load_without_panic(what: &str, src: &str) {
    let result = std::panic::catch_unwind(|| {
        if let Err(e) = abi_codegen::load_schema(src) {
            let _ = e.render("schema.toml", src);
        }
    });
    assert!(result.is_ok(), "load_schema panicked on {what}");
}

/// No fixture, nor any cut of one (its first N lines, or it without line N), panics.
#[test]
fn no_fixture_panics() {
    for name in CLASSES {
        let src = read_fixture(name);
        load_without_panic(&format!("{name}.toml"), &src);
        let lines: Vec<&str> = src.split_inclusive('\n').collect();
        for n in 0..lines.len() {
            load_without_panic(
                &format!("the first {n} lines of {name}.toml"),
                &lines[..n].concat(),
            );
            let without: String = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != n)
                .map(|(_, l)| *l)
                .collect();
            load_without_panic(&format!("{name}.toml without line {}", n + 1), &without);
        }
        // Cut in the middle of a line too, at every byte of the last quarter.
        for cut in (src.len() * 3 / 4..src.len()).filter(|i| src.is_char_boundary(*i)) {
            load_without_panic(&format!("{name}.toml cut at byte {cut}"), &src[..cut]);
        }
    }
}

/// codegen/README.md lists every class in its table of errors, and shows the gap error
/// exactly as the generator prints it.
#[test]
fn every_class_is_documented() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("codegen/README.md");
    let readme = fs::read_to_string(&readme_path).expect("codegen/README.md is readable");
    for class in CLASSES {
        assert!(
            readme.contains(&format!("`{class}`")),
            "codegen/README.md does not list `{class}`"
        );
    }
    let src = read_fixture("gap_between_fields");
    let rendered = abi_codegen::load_schema(&src)
        .expect_err("the gap is an error")
        .render("schema.toml", &src);
    let diagnostic = rendered
        .lines()
        .filter(|l| !l.contains("nothing was written"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        readme.contains(&diagnostic),
        "codegen/README.md should show the gap error as:\n{diagnostic}"
    );
    // README.md's block after "A schema mistake is" shows it, line for line.
    let top = crate::common::readme::block_after("README.md", "A schema mistake is", "text");
    assert_eq!(
        top.trim_end(),
        diagnostic.trim_end(),
        "README.md should show the gap error as:\n{diagnostic}"
    );
}

/// The schema is TOML 1.0: the TOML 1.1 fixtures are what Python's tomllib (a TOML 1.0
/// reader) rejects, and schema.toml is what it reads.
#[test]
fn toml_1_1_syntax_is_what_tomllib_rejects() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("schema.toml")];
    let toml11: Vec<&str> = CLASSES
        .iter()
        .copied()
        .filter(|c| c.starts_with("toml11_"))
        .collect();
    assert_eq!(toml11.len(), 3);
    paths.extend(
        toml11
            .iter()
            .map(|c| fixture_dir().join(format!("{c}.toml"))),
    );
    let script = "import sys, tomllib\n\
        for p in sys.argv[1:]:\n\
        \x20   try:\n\
        \x20       tomllib.load(open(p, 'rb')); print('ok')\n\
        \x20   except tomllib.TOMLDecodeError:\n\
        \x20       print('rejected')\n";
    // Like the other python3 tests, this one fails, never skips, without python3.
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&paths)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts = String::from_utf8_lossy(&out.stdout);
    let verdicts: Vec<&str> = verdicts.lines().collect();
    assert_eq!(verdicts, ["ok", "rejected", "rejected", "rejected"]);
}

/// A schema with more mistakes than the cap shows the first 50 in full, then how many more.
#[test]
fn many_errors_are_capped() {
    let mut src = String::from(
        "[abi]\nname = \"demo\"\nversion = \"0.3\"\nc_prefix = \"demo\"\nbyte_order = \"little\"\n",
    );
    for i in 0..80 {
        src.push_str(&format!(
            "\n[[struct]]\nname = \"s{i}\"\nfields = [{{ name = \"x\", type = \"u3\" }}]\n"
        ));
    }
    let errors = abi_codegen::load_schema(&src).expect_err("80 unknown types");
    assert_eq!(errors.list.len(), 80);
    let rendered = errors.render("schema.toml", &src);
    let headers = rendered.lines().filter(|l| l.starts_with("schema.toml:"));
    assert_eq!(headers.count(), 50);
    assert!(
        rendered
            .ends_with("... and 30 more errors\n80 errors in schema.toml; nothing was written\n"),
        "{rendered}"
    );
}

/// A line longer than 160 characters keeps its excerpt, trimmed around the caret.
#[test]
fn long_lines_keep_their_excerpt() {
    let doc = "d".repeat(95);
    let src = format!(
        "[abi]\nname = \"demo\"\nversion = \"0.3\"\nc_prefix = \"demo\"\nbyte_order = \"little\"\n\n\
         [[struct]]\nname = \"point\"\nfields = [{{ name = \"x\", doc = \"{doc}\", type = \"i32\" }}, {{ name = \"y\", type = \"i3\" }}]\n"
    );
    let errors = abi_codegen::load_schema(&src).expect_err("unknown type");
    let rendered = errors.render("schema.toml", &src);
    let lines: Vec<&str> = rendered.lines().collect();
    assert!(
        lines[0].starts_with("schema.toml:9:168: error:"),
        "{rendered}"
    );
    let excerpt = lines
        .iter()
        .find(|l| l.starts_with("9 | "))
        .unwrap_or_else(|| panic!("no excerpt:\n{rendered}"));
    assert!(
        excerpt.contains("...") && excerpt.contains("type = \"i3\""),
        "{rendered}"
    );
    let caret = lines.iter().find(|l| l.contains('^')).expect("a caret");
    assert_eq!(caret.find("^^"), excerpt.find("i3\""), "{rendered}");
    assert!(
        rendered.contains("= help: did you mean `i32`?"),
        "{rendered}"
    );
}

/// The messages a newcomer met (issue 38 item 12), each exactly: where it points, what it
/// says and its hint. A `,` for `},` names the inline table that does not close, not the
/// next line; a plain counter beside an atomic one names the atomic one; a count of a
/// struct field says so and lists the integer fields; a row not in its enum lists the
/// values; an oversized pad is shrunk, not padded again; a narrowed enum repr is named.
#[test]
fn a_newcomers_mistakes_have_exact_messages() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "toml_inline_table_unclosed",
            r#"{ name = "x", type = "f32" ,"#,
            r#"the inline table on line 11 does not close on its line: `{ name = "x", type = "f32" ,` has no `}`"#,
            r#"an inline table is `{ ... }` on one line: write `{ name = "x", type = "f32" },`"#,
        ),
        (
            "seqlock_counter_beside_the_atomic",
            "state_record.tick",
            "seqlock `state_lock`: counter `state_record.tick` is not an atomic field (its access is plain)",
            "did you mean `state_record.seq`? It is an atomic u32, as a counter is",
        ),
        (
            "count_names_a_struct",
            "pose",
            "field `track.points`: `count = \"pose\"`: field `pose` of `track` is a struct (`pose`), not an integer field",
            "name an integer field of `track`: `point_count`",
        ),
        (
            "layout_row_not_in_enum",
            "telemetry",
            "layout `image`: `telemetry` is not a value of enum `region`",
            r#"the values of `region` are `header`, `blocks`, `log`; a new row needs its value there first: `{ name = "telemetry", value = 3 }`"#,
        ),
        (
            "tail_pad_oversized",
            r#"{ name = "_pad12", type = "u8[8]" }"#,
            "struct `sample`: 4 bytes of undeclared tail padding: its fields end at 0x14 (20) but its alignment is 8",
            r#"make "_pad12" u8[4] to end at 0x10 (16), or u8[12] to end at 0x18"#,
        ),
        (
            "tail_pad_moved",
            r#"{ name = "_pad24", type = "u8[8]" }"#,
            "struct `sample`: 3 bytes of undeclared tail padding: its fields end at 0x1d (29) but its alignment is 8",
            r#"declare "_pad21: u8[3]" before "_pad24": it puts "_pad24" back at 0x18 (24), as its name says, and keeps every offset; or make "_pad24" u8[3] to end at 0x18 (24), or u8[11] to end at 0x20"#,
        ),
        (
            "enum_repr_narrowed",
            "row_state",
            "struct `client_row`: field `state` is 1 byte (enum `row_state` has repr u8), which leaves a 3-byte gap before field `generation` at offset 0x1 (1)",
            r#"if `state` is meant to be 4 bytes, its enum's repr is the mistake: write repr = "u32" on `row_state`; else declare "_pad1: u8[3]" before "generation""#,
        ),
    ];
    for (name, at, message, help) in cases {
        let src = read_fixture(name);
        let errors = abi_codegen::load_schema(&src).expect_err("the fixture has errors");
        let d = &errors.list[0];
        assert_eq!(
            (&src[d.span.clone()], d.message.as_str(), d.help.as_deref()),
            (*at, *message, Some(*help)),
            "{name}.toml"
        );
    }
}
