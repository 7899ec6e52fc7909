//! The attach plan (`abi_codegen::testing::plan::attach`): each decision attach checks with, made once,
//! for a small fixture (`tests/fixtures/attach/plan.toml`) whose expected values are worked
//! out from its text here; then every backend's print of the decisions the languages used to
//! make each on its own (which rows a newer producer adds, which row is the header, blocks
//! and their followed stride, the geometry rules and defaults).

use abi_codegen::testing::inspect::AttachSpecs;
use abi_codegen::testing::plan::attach::{Contents, NeedPlan, Rule, Word};

const SRC: &str = include_str!("../../tests/fixtures/attach/plan.toml");

fn fixture() -> abi_codegen::Schema {
    abi_codegen::load_schema(SRC).unwrap_or_else(|e| panic!("{}", e.render("plan.toml", SRC)))
}

fn word(offset: u64, width: u64) -> Word {
    Word { offset, width }
}

#[test]
fn the_root_table_has_the_fixtures_numbers() {
    let plan = fixture().attach_plan().clone();
    let names: Vec<&str> = plan.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["image", "block", "leaf"]);
    let t = &plan.tables[0];
    // magic 0, major 4, minor 6, header_size 8, total_size 12, region_count 16, stride 20,
    // blocks 24, _pad28, regions 32 (8 rows of two u32s), clock 96 (u64, since 1.2).
    assert_eq!(t.header, "header");
    assert_eq!(t.header_size, 104);
    assert_eq!(t.table_offset, 32);
    assert_eq!((t.max_rows, t.row_size), (8, 8));
    assert_eq!((t.row_offset, t.row_len), (word(0, 4), word(4, 4)));
    assert_eq!(t.row_count, Some(word(16, 4)));
    assert_eq!(t.extent, Some(word(12, 4)));
    let rows: Vec<(&str, u64)> = t.rows.iter().map(|r| (r.name.as_str(), r.index)).collect();
    assert_eq!(
        rows,
        [
            ("header", 0),
            ("blocks", 1),
            ("extra", 2),
            ("base", 3),
            ("old", 5)
        ]
    );
}

/// Only a row added at a later minor of ours major (1.2 in 1.3) may be missing from an
/// older producer's table: 1.0 and 0.7 are in every 1.x producer's.
#[test]
fn only_a_row_added_at_a_later_minor_may_be_missing() {
    let plan = fixture().attach_plan().clone();
    let since: Vec<(&str, Option<u32>)> = (plan.tables[0].rows.iter())
        .map(|r| (r.name.as_str(), r.since_minor))
        .collect();
    assert_eq!(
        since,
        [
            ("header", None),
            ("blocks", None),
            ("extra", Some(2)),
            ("base", None),
            ("old", None),
        ]
    );
}

#[test]
fn the_header_row_and_nested_blocks_with_their_followed_stride() {
    let schema = fixture();
    let plan = schema.attach_plan().clone();
    let layout = |name: &str| schema.attach().layout_id(name).expect("a layout");
    let contents =
        |t: usize| -> Vec<Contents> { plan.tables[t].rows.iter().map(|r| r.contents).collect() };
    // image.blocks: block_count (3) blocks of layout `block`, block_size (512) apart, the
    // writer's stride in the header's `stride` (geometry 0).
    let blocks = Contents::Blocks {
        table: layout("block"),
        count: 3,
        stride: 512,
        stride_geometry: Some(0),
    };
    use Contents::{Header, Plain};
    assert_eq!(contents(0), [Header, blocks, Plain, Plain, Plain]);
    // block.leaves: 2 leaves 128 (leaf_size) apart; no geometry field names leaf_size.
    let leaves = Contents::Blocks {
        table: layout("leaf"),
        count: 2,
        stride: 128,
        stride_geometry: None,
    };
    assert_eq!(contents(1), [Plain, leaves]);
    assert_eq!(contents(2), [Plain]);
    // The blocks need 3 times the writer's stride.
    let need = plan.tables[0].rows[1].need.clone();
    assert_eq!(
        need,
        Some(NeedPlan {
            fixed: 0,
            terms: vec![(3, vec![0])]
        })
    );
}

#[test]
fn a_followed_stride_and_an_equal_count() {
    let plan = fixture().attach_plan().clone();
    let g = &plan.tables[0].geometry;
    let fields: Vec<(&str, Option<usize>, Word)> = g
        .iter()
        .map(|g| (g.name.as_str(), g.row, g.field))
        .collect();
    assert_eq!(
        fields,
        [("stride", None, word(20, 4)), ("blocks", None, word(24, 4))]
    );
    // The stride is followed: at least a block's header (8 + 8 rows of 8 bytes), a multiple
    // of its alignment (u32s); its default is block_size. The count sizes nothing the views
    // follow: it must equal block_count.
    assert_eq!(
        g[0].rule,
        Rule::Follow {
            least: 72,
            align: 4
        }
    );
    assert_eq!(g[0].default, Some(512));
    assert_eq!(g[1].rule, Rule::Equal(3));
    assert_eq!(g[1].default, Some(3));
}

#[test]
fn the_handshake_has_the_fixtures_numbers() {
    let schema = fixture();
    let plan = schema.attach_plan();
    let [h] = &plan.handshakes[..] else {
        panic!("one handshake: {:?}", plan.handshakes)
    };
    assert_eq!(h.record, "header");
    assert_eq!((h.ours.major, h.ours.minor), (1, 3));
    let magic = h.magic.expect("the header's magic");
    assert_eq!((magic.field, magic.value), (word(0, 4), 0x4E41_4C50));
    assert_eq!(
        (h.major, h.minor, h.size),
        (word(4, 2), word(6, 2), Some(word(8, 4)))
    );
    // Every 1.x producer writes up to `clock`, which 1.2 added.
    assert_eq!((h.base_size, h.full_size), (96, 104));
    let added: Vec<(&str, u32, u64, u64)> = (h.added.iter())
        .map(|a| (a.name.as_str(), a.since_minor, a.offset, a.end))
        .collect();
    assert_eq!(added, [("clock", 2, 96, 104)]);
    assert_eq!((h.state, h.generation), (None, None));
    assert_eq!(plan.handshake_of(h.struct_index), Some(h));
}

/// inspect's specs for the runtime's engine are the plan's, field for field.
#[test]
fn inspect_asks_the_runtime_with_the_plans_numbers() {
    let plan = fixture().attach_plan().clone();
    let specs = AttachSpecs::new(&plan);
    let t = specs.table(0);
    let since: Vec<Option<u32>> = t.rows.iter().map(|r| r.since_minor).collect();
    assert_eq!(since, [None, None, Some(2), None, None]);
    match t.rows[1].contents {
        abi_runtime::attach::spec::RowContents::Blocks {
            table,
            count,
            stride,
            stride_geometry,
        } => {
            assert_eq!(table.name, "block");
            assert_eq!((count, stride, stride_geometry), (3, 512, Some(0)));
            assert_eq!(table.rows[1].name, "leaves");
        }
        ref other => panic!("image.blocks holds {other:?}"),
    }
    assert_eq!(
        t.geometry[0].rule,
        abi_runtime::attach::spec::GeometryRule::Follow {
            least: 72,
            align: 4
        }
    );
    assert_eq!(t.header_size, 104);
    let h = specs
        .handshake(plan.handshakes[0].struct_index)
        .expect("the header's");
    assert_eq!(
        (h.base_size, h.full_size, h.added[0].since_minor),
        (96, 104, 2)
    );
}

/// Each language's tables print the plan: the row added at 1.2 is the only one a newer
/// producer adds, as its `since_minor` in all three (the plan gives since only within our major).
#[test]
fn every_backend_prints_the_rows_since() {
    let schema = fixture();
    let outputs = abi_codegen::testing::language_backend::generate_all(&schema, "plan.toml")
        .expect("the fixture renders");
    let text = |ext: &str| {
        let name = format!("plan.{ext}");
        let o = outputs.iter().find(|o| o.file_name == name);
        o.unwrap_or_else(|| panic!("no {name}")).contents.clone()
    };
    let rust = text("rs").split_whitespace().collect::<Vec<_>>().join(" ");
    for (row, since) in [("extra", "Some(2)"), ("base", "None"), ("old", "None")] {
        let want = format!("name: \"{row}\", index:");
        let at = rust
            .find(&want)
            .unwrap_or_else(|| panic!("no row {row} in the Rust"));
        let spec = &rust[at..at + 80];
        assert!(
            spec.contains(&format!("since_minor: {since},")),
            "{row}: {spec}"
        );
    }
    let c = text("h");
    assert!(c.contains("{\"extra\", 2U, 2, 0, 0,"), "C's row extra");
    assert!(c.contains("{\"base\", 3U, -1, 0, 0,"), "C's row base");
    assert!(c.contains("{\"old\", 5U, -1, 0, 0,"), "C's row old");
    let py = text("py");
    assert!(
        py.contains("_AttachRow(\"extra\", 2, 2, False,"),
        "Python's row extra"
    );
    assert!(
        py.contains("_AttachRow(\"base\", 3, None, False,"),
        "Python's row base"
    );
    assert!(
        py.contains("_AttachRow(\"old\", 5, None, False,"),
        "Python's row old"
    );
}
