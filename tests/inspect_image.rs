//! `abi-codegen inspect bridge`: the whole bridge image of the attach tests decoded through the
//! schema's `[[layout]]` tables, and every corrupted copy refused with the check attach names.

mod common;

use abi_codegen::inspect::{
    FileInspection, Level, find_layout, inspect_image, render_file_dump, render_file_json,
};
use common::image;

fn run(schema: &abi_codegen::Schema, bytes: &[u8]) -> FileInspection {
    let root = schema.attach.root.expect("the bridge is the root layout");
    assert_eq!(find_layout(schema, "bridge"), Some(root));
    inspect_image(schema, root, &bytes)
}

/// The issues as stderr shows them.
fn issues(i: &FileInspection) -> String {
    abi_codegen::inspect::render_file_issues(i)
}

#[test]
fn the_valid_image_decodes_every_region() {
    let schema = common::bridge_schema();
    let bytes = image::valid();
    // Left for the README's example: `abi-codegen inspect bridge target/tmp/bridge.bin`.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("bridge.bin"), &bytes).unwrap();
    let i = run(&schema, &bytes);
    assert!(!i.has(Level::Error), "{}", issues(&i));
    let json = render_file_json(&schema, &i);
    let data = &json["data"];
    assert_eq!(data["header"][0]["value"]["total_size"], image::TOTAL);
    assert_eq!(
        data["snapshot_ring"].as_array().unwrap().len(),
        8,
        "one slot header per slot"
    );
    assert_eq!(data["client_blocks.header"].as_array().unwrap().len(), 8);
    assert_eq!(data["client_blocks.pad_input"].as_array().unwrap().len(), 8);
    assert_eq!(
        data["client_blocks.pad_input"][2]["path"],
        "client_blocks[2].pad_input"
    );
    assert_eq!(
        data["client_blocks.pad_input"][2]["offset"],
        image::CLIENT_BLOCKS.0 + 2 * 0x10000 + image::CLIENT_ROWS[1].0
    );
    assert_eq!(data["bot_blocks.stats"].as_array().unwrap().len(), 8);
    assert_eq!(data["log_ring"][0]["type"], "log_ring_header");
    let dump = render_file_dump(&schema, &i);
    assert!(
        dump.contains("## bot_blocks[7].params params_header"),
        "{dump}"
    );
}

#[test]
fn every_corrupted_image_is_refused_with_its_check() {
    let schema = common::bridge_schema();
    for c in image::corruptions() {
        let words = match c.check {
            "mapping_too_short" => "lies past the end of the file",
            "bad_magic" => "bad magic",
            "major_mismatch" => "major version",
            "header_too_small" => "header too small",
            "header_beyond_mapping" => "header beyond the mapping",
            "extent_beyond_mapping" => "spans past the end of the file",
            "extent_too_small" => "extent too small",
            "extent_beyond_block" => "spans past the end of its block",
            "too_many_rows" => "past the table's",
            "region_missing" => "region missing",
            "region_out_of_bounds" => "region out of bounds",
            "region_misaligned" => "region misaligned",
            "region_too_small" => "region too small",
            "regions_overlap" => "regions overlap",
            other => panic!("no words for {other}"),
        };
        let i = run(&schema, &c.image);
        assert!(
            i.issues
                .iter()
                .any(|x| x.level == Level::Error && x.message.contains(words)),
            "{}: expected an error saying `{words}`, got:\n{}",
            c.name,
            issues(&i)
        );
    }
}

#[test]
fn hostile_images_never_panic() {
    let schema = common::bridge_schema();
    let valid = image::valid();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..100 {
        let mut b = valid.clone();
        for _ in 0..6 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly the header's and the blocks' tables, where the offsets are.
            let at = if seed % 2 == 0 {
                (seed >> 8) as usize % 0x100
            } else {
                (seed >> 8) as usize % b.len()
            };
            b[at] = (seed >> 32) as u8;
        }
        let cut = if round % 5 == 0 {
            (seed >> 40) as usize % b.len()
        } else {
            b.len()
        };
        let _ = run(&schema, &b[..cut]);
    }
    let _ = run(&schema, &[]);
}
