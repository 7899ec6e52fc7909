//! A blocks row's `owner` is linked to the row of that name, wherever the schema's text
//! declares it (issue 49): lowering used to read the lowered row at the raw row's position,
//! so a struct row declared before an owned blocks row, and ordered after it by the index
//! enum, made lowering refuse the schema with "`owner` is for a `blocks` row".

use abi_codegen::testing::ir::ProtocolId;
use abi_codegen::testing::ir::attach::Holds;

const SRC: &str = include_str!("../../tests/fixtures/attach/owner_after_a_struct_row.toml");

fn load(src: &str) -> abi_codegen::Schema {
    abi_codegen::load_schema(src)
        .unwrap_or_else(|e| panic!("{}", e.render("owner_after_a_struct_row.toml", src)))
}

/// The session's index among the protocols, and each row of the root layout as (name,
/// whether it holds blocks, its owner).
fn owners(schema: &abi_codegen::Schema) -> (ProtocolId, Vec<(String, bool, Option<ProtocolId>)>) {
    let session = schema.protocol_id("client").expect("session `client`");
    let image = schema
        .attach()
        .layouts
        .iter()
        .find(|l| l.name == "image")
        .expect("layout `image`");
    let rows = image
        .rows
        .iter()
        .map(|r| {
            let blocks = matches!(r.holds, Holds::Blocks { .. });
            (r.name.clone(), blocks, r.owner)
        })
        .collect();
    (session, rows)
}

#[test]
fn an_owned_blocks_row_declared_after_a_struct_row_is_linked_by_its_name() {
    let schema = load(SRC);
    let (session, rows) = owners(&schema);
    // The lowered table is in the enum's order: header 0, blocks 1, stats 2.
    assert_eq!(
        rows,
        [
            ("header".to_string(), false, None),
            ("blocks".to_string(), true, Some(session)),
            ("stats".to_string(), false, None),
        ]
    );
    let owned = abi_codegen::testing::plan::session::owned_blocks(&schema, session);
    let owned_rows: Vec<usize> = owned.iter().map(|o| o.row).collect();
    assert_eq!(
        owned_rows,
        [1],
        "the free restores the `blocks` row's blocks"
    );
}

#[test]
fn the_rows_in_the_enums_order_give_the_same_owners() {
    let reordered = SRC.replace(
        "  { name = \"stats\", struct = \"stats\" },\n  { name = \"blocks\", blocks = \"block\", count = 2, stride = 256, owner = \"client\" },\n",
        "  { name = \"blocks\", blocks = \"block\", count = 2, stride = 256, owner = \"client\" },\n  { name = \"stats\", struct = \"stats\" },\n",
    );
    assert_ne!(reordered, SRC, "the fixture's rows were found");
    assert_eq!(owners(&load(&reordered)), owners(&load(SRC)));
}
