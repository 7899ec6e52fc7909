//! Pathological but valid schemas, built in memory: deep nesting, huge arrays, a 1 MB doc
//! string, 10,000 enum values (and 10,000 fields and constants). Each must load and render
//! through every target, or fail with a clear error; none may overflow the stack or take
//! quadratic time. The tests print how long each took (`--nocapture`) and assert no time.
//!
//! The 1 MB doc test compiles the header with gcc and g++ and imports the module with
//! python3: it fails, never skips, when one of them is missing.

use crate::common;

use std::fmt::Write;
use std::time::Instant;

use abi_codegen::Schema;
use abi_codegen::testing::language_backend::generate_all;
use abi_codegen::testing::write::Output;

use common::markdown_blocks::table_rows;
use common::tools;

fn header(name: &str) -> String {
    format!(
        "[abi]\nname = \"{name}\"\nversion = \"1.0\"\nc_prefix = \"pt\"\nbyte_order = \"little\"\n"
    )
}

/// Loads `src` and renders every target, printing how long each step took.
fn load_and_render(what: &str, src: &str) -> (Schema, Vec<Output>) {
    let t = Instant::now();
    let schema = abi_codegen::load_schema(src)
        .unwrap_or_else(|e| panic!("{what}:\n{}", e.render("schema.toml", src)));
    let loaded = t.elapsed();
    let t = Instant::now();
    let outputs = generate_all(&schema, "schema.toml").expect("every target renders");
    println!(
        "{what}: {} KiB of schema loaded in {loaded:.1?}, four targets ({} KiB) rendered in {:.1?}",
        src.len() / 1024,
        outputs.iter().map(|o| o.contents.len()).sum::<usize>() / 1024,
        t.elapsed()
    );
    (schema, outputs)
}

fn output<'a>(outputs: &'a [Output], ext: &str) -> &'a str {
    &outputs
        .iter()
        .find(|o| o.file_name.ends_with(ext))
        .unwrap_or_else(|| panic!("no {ext} output"))
        .contents
}

/// The errors of `src`, rendered; panics when it loads.
fn errors_of(what: &str, src: &str) -> (usize, String) {
    let t = Instant::now();
    let errors = match abi_codegen::load_schema(src) {
        Ok(_) => panic!("{what}: loaded without errors"),
        Err(e) => e,
    };
    println!("{what}: rejected in {:.1?}", t.elapsed());
    (errors.list.len(), errors.render("schema.toml", src))
}

/// 64 structs, each holding the previous one after a `u64`, declared outermost first so
/// that the layout must order them. Level k is 8 × (k + 1) bytes: 8 for its `u64` and 8 × k
/// for the level it holds.
#[test]
fn sixty_four_levels_of_nesting() {
    let mut src = header("deep");
    for level in (0..=64).rev() {
        write!(src, "\n[[struct]]\nname = \"level{level}\"\nfields = [\n").unwrap();
        src.push_str("  { name = \"value\", type = \"u64\" },\n");
        if level > 0 {
            writeln!(
                src,
                "  {{ name = \"inner\", type = \"level{}\" }},",
                level - 1
            )
            .unwrap();
        }
        src.push_str("]\n");
    }
    let (schema, outputs) = load_and_render("64 levels of nesting", &src);
    let index = |name: &str| schema.abi().find_struct(name).unwrap();
    let top = index("level64");
    assert_eq!(schema.layout().of(top).size, 8 * 65);
    assert_eq!(schema.layout().of(top).fields[1].offset, 8);
    // Every struct comes after the one it holds in the dependency order.
    let order = &schema.layout().order;
    for level in 1..=64 {
        let pos = |name: String| order.iter().position(|&i| i == index(&name)).unwrap();
        assert!(pos(format!("level{}", level - 1)) < pos(format!("level{level}")));
    }
    assert!(output(&outputs, ".h").contains("} pt_level64;"));
    assert!(output(&outputs, ".py").contains("class Level64(_Struct):"));
}

/// The layout, lowering and targets walk structs without recursion: 5,000 levels load.
#[test]
fn five_thousand_levels_of_nesting_do_not_overflow_the_stack() {
    let levels = 5_000;
    let mut src = header("deeper");
    for level in (0..=levels).rev() {
        write!(src, "\n[[struct]]\nname = \"level{level}\"\nfields = [\n").unwrap();
        src.push_str("  { name = \"value\", type = \"u8\" },\n");
        if level > 0 {
            writeln!(
                src,
                "  {{ name = \"inner\", type = \"level{}\" }},",
                level - 1
            )
            .unwrap();
        }
        src.push_str("]\n");
    }
    let (schema, _) = load_and_render("5,000 levels of nesting", &src);
    let top = schema.abi().find_struct("level5000").unwrap();
    assert_eq!(schema.layout().of(top).size, levels + 1);

    // A cycle through all of them is one clear error, found without recursion either.
    let cyclic = src.replacen(
        "name = \"level0\"\nfields = [\n  { name = \"value\", type = \"u8\" },\n",
        "name = \"level0\"\nfields = [\n  { name = \"value\", type = \"u8\" },\n  { name = \"back\", type = \"level5000\" },\n",
        1,
    );
    assert_ne!(cyclic, src);
    let (count, rendered) = errors_of("a cycle through 5,001 structs", &cyclic);
    assert_eq!(count, 1, "{}", &rendered[..rendered.len().min(2000)]);
    assert!(
        rendered.contains("contains itself"),
        "{}",
        &rendered[..2000]
    );
}

/// TOML nesting deeper than the parser allows is an error, not a stack overflow.
#[test]
fn deeply_nested_toml_is_an_error() {
    for (open, close) in [("[", "]"), ("{ a = ", " }")] {
        let n = 100_000;
        let src = format!(
            "{}doc = {}1{}\n",
            header("nest"),
            open.repeat(n),
            close.repeat(n)
        );
        let (count, rendered) = errors_of("100,000 nested TOML arrays or tables", &src);
        assert_eq!(count, 1);
        assert!(rendered.starts_with("schema.toml:6:"), "{rendered}");
    }
}

fn one_field(ty: &str) -> String {
    format!(
        "{}\n[[struct]]\nname = \"big\"\nfields = [\n  {{ name = \"data\", type = \"{ty}\" }},\n]\n",
        header("big")
    )
}

/// `u8[2^31]` is 2 GiB and fits the 4 GiB - 1 limit; `u64[2^31]` is 16 GiB and does not:
/// an error at the type, with the numbers, never a size that wrapped.
#[test]
fn arrays_of_two_to_the_31_elements() {
    let (schema, outputs) = load_and_render("u8[2^31]", &one_field("u8[2147483648]"));
    let big = schema.abi().find_struct("big").unwrap();
    assert_eq!(schema.layout().of(big).size, 1 << 31);
    assert!(output(&outputs, ".h").contains("uint8_t data[2147483648];"));
    assert!(output(&outputs, ".py").contains("ctypes.c_uint8 * 2147483648"));
    assert!(output(&outputs, ".rs").contains("pub data: [u8; 2147483648]"));
    assert!(output(&outputs, ".md").contains("| 0x0000 | 2147483648 | data |"));

    let src = one_field("u64[2147483648]");
    let (count, rendered) = errors_of("u64[2^31]", &src);
    assert_eq!(count, 1);
    let first = rendered.lines().next().unwrap();
    assert_eq!(
        first,
        "schema.toml:10:28: error: field `big.data`: 2147483648 elements of 8 bytes make \
         17179869184 bytes, over the size limit of 4294967295 bytes (4 GiB - 1)"
    );

    // The largest array that fits, and one byte more: the end of the struct overflows.
    load_and_render("u8[2^32 - 1]", &one_field("u8[4294967295]"));
    let src = format!(
        "{}\n[[struct]]\nname = \"big\"\nfields = [\n  {{ name = \"data\", type = \"u8[4294967295]\" }},\n  {{ name = \"one_more\", type = \"u8\" }},\n]\n",
        header("big")
    );
    let (count, rendered) = errors_of("u8[2^32 - 1] and one more byte", &src);
    assert_eq!(count, 1);
    assert!(
        rendered.contains("field `one_more` ends past the size limit of 4294967295 bytes"),
        "{rendered}"
    );

    // A struct of two 2 GiB structs is 4 GiB: the same error, through nesting.
    let src = format!(
        "{}\n[[struct]]\nname = \"half\"\nfields = [{{ name = \"data\", type = \"u8[2147483648]\" }}]\n\n[[struct]]\nname = \"whole\"\nfields = [\n  {{ name = \"a\", type = \"half\" }},\n  {{ name = \"b\", type = \"half\" }},\n]\n",
        header("big")
    );
    let (count, rendered) = errors_of("two 2 GiB structs in one", &src);
    assert_eq!(count, 1);
    assert!(
        rendered.contains("struct `whole`: field `b` ends past the size limit"),
        "{rendered}"
    );

    // And a length past u32 is an error of its own.
    let (count, rendered) = errors_of("u8[2^32]", &one_field("u8[4294967296]"));
    assert_eq!(count, 1);
    assert!(
        rendered.contains("array length 4294967296 is not between 1 and 4294967295"),
        "{rendered}"
    );
}

/// A doc of about 1 MB with everything a target must escape, on every kind of item. Each
/// target renders it with its escaping intact: the header compiles, the Python docstring and
/// the markdown cell read back as the text, and the Rust doc lines unescape to it.
#[test]
fn one_megabyte_doc_string() {
    let piece = "*/ /* \"\"\" ''' \\ | ` {{ x }} {% y %} é 漢字 _z_ [l](m) <b> &amp; ??/ ";
    let mut doc = String::new();
    while doc.len() < 1 << 20 {
        doc.push_str(piece);
    }
    // One word of 64 KiB, which no line wrapping can split.
    doc.push_str(&"w".repeat(64 * 1024));
    doc.push_str(" end \\");
    let toml_doc = doc.replace('\\', "\\\\").replace('"', "\\\"");
    let src = format!(
        "{}doc = \"{toml_doc}\"\n\n[[const]]\nname = \"answer\"\nvalue = 42\ndoc = \"{toml_doc}\"\n\n\
         [[enum]]\nname = \"kind\"\nrepr = \"u8\"\ndoc = \"{toml_doc}\"\nvalues = [{{ name = \"a\", value = 0, doc = \"{toml_doc}\" }}]\n\n\
         [[struct]]\nname = \"record\"\ndoc = \"{toml_doc}\"\nfields = [{{ name = \"value\", type = \"u32\", doc = \"{toml_doc}\" }}]\n",
        header("huge")
    );
    let (_, outputs) = load_and_render("1 MB doc strings on six items", &src);

    // Markdown: the constant's and the field's cells hold the doc.
    let rows = table_rows(output(&outputs, ".md"));
    let docs_in_cells = rows.iter().filter(|r| r.last() == Some(&doc)).count();
    assert_eq!(docs_in_cells, 3, "the constant, the value and the field");

    // Rust: each doc line, unescaped, is a line of the doc's text.
    let rust = output(&outputs, ".rs");
    let unescaped: Vec<String> = rust
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("/// "))
        .filter_map(common::markdown_blocks::line_text)
        .collect();
    let longest = unescaped
        .iter()
        .find(|l| l.starts_with("*/ /*"))
        .expect("a doc line");
    let differs = longest
        .chars()
        .zip(doc.chars())
        .position(|(a, b)| a != b)
        .unwrap_or(longest.len().min(doc.len()));
    assert!(
        unescaped.iter().filter(|l| **l == doc).count() >= 4,
        "the doc in Rust: the longest line renders as {:?}, the doc is {:?}",
        longest
            .chars()
            .skip(differs.saturating_sub(20))
            .take(60)
            .collect::<String>(),
        doc.chars()
            .skip(differs.saturating_sub(20))
            .take(60)
            .collect::<String>(),
    );

    let dir = tools::scratch("pathological-1mb");
    for o in &outputs {
        std::fs::write(dir.join(&o.file_name), &o.contents).unwrap();
    }
    tools::compile_c_header(&dir, "huge.h");
    let script = "import sys, warnings\nwarnings.simplefilter('error')\nsys.path.insert(0, '.')\n\
                  import huge\nprint(huge.Record.__doc__)\n";
    std::fs::write(dir.join("check.py"), script).unwrap();
    let printed = tools::run_ok("python3", &["check.py"], &dir);
    assert!(
        printed.lines().any(|l| l.trim() == doc),
        "the docstring holds the doc"
    );
}

/// 10,000 values in one enum, and one duplicate among them: linear, not quadratic, checks.
#[test]
fn ten_thousand_enum_values() {
    let n = 10_000;
    let mut src = header("many");
    src.push_str("\n[[enum]]\nname = \"code\"\nrepr = \"u16\"\nvalues = [\n");
    for i in 0..n {
        writeln!(
            src,
            "  {{ name = \"code_{i}\", value = {i}, doc = \"Code {i}\" }},"
        )
        .unwrap();
    }
    src.push_str(
        "]\n\n[[struct]]\nname = \"holder\"\nfields = [{ name = \"code\", type = \"code\" }]\n",
    );
    let (schema, outputs) = load_and_render("10,000 enum values", &src);
    assert_eq!(schema.abi().enums[0].values.len(), n);
    assert_eq!(
        output(&outputs, ".h")
            .matches("#define PT_CODE_CODE_")
            .count(),
        n
    );
    assert_eq!(output(&outputs, ".py").matches("    CODE_").count(), 2 * n);
    assert_eq!(
        output(&outputs, ".rs").matches("pub const CODE_").count(),
        n
    );
    assert_eq!(output(&outputs, ".md").matches("| code_").count(), n);

    let dup = src.replacen("name = \"code_9999\"", "name = \"code_17\"", 1);
    let (count, rendered) = errors_of("10,000 enum values, one duplicate", &dup);
    assert_eq!(count, 1, "{rendered}");
    assert!(
        rendered.contains("duplicate value name `code_17`"),
        "{rendered}"
    );
}

/// 10,000 fields in one struct and 10,000 constants, each computed from the one before.
#[test]
fn ten_thousand_fields_and_constants() {
    let n = 10_000;
    let mut src = header("wide");
    src.push_str("\n[[const]]\nname = \"c0\"\nvalue = 1\n");
    for i in 1..n {
        write!(
            src,
            "\n[[const]]\nname = \"c{i}\"\nvalue = \"c{} + 1\"\n",
            i - 1
        )
        .unwrap();
    }
    src.push_str("\n[[struct]]\nname = \"wide\"\nfields = [\n");
    for i in 0..n {
        writeln!(src, "  {{ name = \"f{i}\", type = \"u8\" }},").unwrap();
    }
    src.push_str("]\n");
    let (schema, _) = load_and_render("10,000 fields and 10,000 constants", &src);
    let wide = schema.abi().find_struct("wide").unwrap();
    assert_eq!(schema.layout().of(wide).size, n as u64);
    assert_eq!(schema.abi().consts[n - 1].value, n as i128);

    let dup = src.replacen("name = \"f9999\"", "name = \"f3\"", 1);
    let (count, rendered) = errors_of("10,000 fields, one duplicate", &dup);
    assert_eq!(count, 1, "{rendered}");
    assert!(rendered.contains("duplicate field `f3`"), "{rendered}");
}
