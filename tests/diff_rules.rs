//! The rules of `abi-codegen diff` for the declarations beyond structs, enums and constants,
//! as one table a reviewer reads: each row is a change to tests/fixtures/diff_rules/base.toml
//! (text edits and the new version), the rule it must fall under, at which item, its class,
//! and the advice it must give. Every row's report is pinned in every output format. Then
//! the advice of the rows that ask for something is applied, and the result checked: the
//! schema loads, and the diff's verdict holds.

mod common;

use abi_codegen::diff::{
    Diff, Severity as S, Sources, compute_diff, render_github, render_json, render_markdown,
    render_text,
};
use abi_codegen::{Schema, load_schema};

const BASE: &str = "tests/fixtures/diff_rules/base.toml";

fn base() -> String {
    let path = format!("{}/{BASE}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn load(name: &str, src: &str) -> Schema {
    load_schema(src).unwrap_or_else(|e| panic!("{}", e.render(name, src)))
}

/// `src` with each `(from, to)` replaced, each `from` found exactly once.
fn edit(src: &str, edits: &[(&str, &str)]) -> String {
    let mut s = src.to_string();
    for (from, to) in edits {
        assert_eq!(
            s.matches(from).count(),
            1,
            "{from:?} is not in the text once"
        );
        s = s.replacen(from, to, 1);
    }
    s
}

/// One row of the table.
struct Row {
    /// What the user did.
    change: &'static str,
    edits: &'static [(&'static str, &'static str)],
    version: &'static str,
    /// The rule, the item it names, and its class.
    rule: &'static str,
    path: &'static str,
    class: S,
    /// Words the change's advice contains.
    advice: &'static str,
    /// Whether the version policy holds at `version`.
    holds: bool,
}

const V: (&str, &str) = ("version = \"1.0\"", "version = \"VERSION\"");

#[rustfmt::skip]
const TABLE: &[Row] = &[
    Row { change: "access = \"atomic\" → plain, on a counter",
        edits: &[("{ name = \"frames\", type = \"u32\", access = \"atomic\" }", "{ name = \"frames\", type = \"u32\" }")],
        version: "1.1", rule: "ACCESS_ATOMIC_TO_PLAIN", path: "stats.frames", class: S::Breaking,
        advice: "keep access = \"atomic\", or bump the major version", holds: false },
    Row { change: "plain → access = \"atomic\"",
        edits: &[("{ name = \"buttons\", type = \"u32\" }", "{ name = \"buttons\", type = \"u32\", access = \"atomic\" }")],
        version: "1.1", rule: "ACCESS_PLAIN_TO_ATOMIC", path: "input.buttons", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "removing a [[seqlock]]",
        edits: &[("[[seqlock]]\nname = \"stats_lock\"\ncounter = \"stats.seq\"\nguards = [\"tick\", \"load\"]\nwriter = \"host\"\nreader = \"client\"\n", "")],
        version: "1.1", rule: "SEQLOCK_REMOVED", path: "stats_lock", class: S::Breaking,
        advice: "bump the major version", holds: false },
    Row { change: "swapping a seqlock's writer and reader (and the struct's writer)",
        edits: &[("writer = \"host\"\nreader = \"client\"\n", "writer = \"client\"\nreader = \"host\"\n"),
                 ("name = \"stats\"\nwriter = \"host\"", "name = \"stats\"\nwriter = \"client\"")],
        version: "1.1", rule: "SEQLOCK_PARTIES_CHANGED", path: "stats_lock", class: S::Breaking,
        advice: "bump the major version", holds: false },
    Row { change: "changing a seqlock's guards",
        edits: &[("guards = [\"tick\", \"load\"]", "guards = [\"tick\"]")],
        version: "2.0", rule: "SEQLOCK_GUARDS_CHANGED", path: "stats_lock", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a layout row made optional = true",
        edits: &[("{ name = \"journal\", struct = \"journal\" }", "{ name = \"journal\", struct = \"journal\", optional = true }")],
        version: "1.1", rule: "LAYOUT_ROW_OPTIONAL_CHANGED", path: "image.journal", class: S::Breaking,
        advice: "bump the major version", holds: false },
    Row { change: "a new index value and a [[layout]] row, without since",
        edits: &[("  { name = \"mailbox\", value = 4 },\n", "  { name = \"mailbox\", value = 4 },\n  { name = \"scratch\", value = 5 },\n"),
                 ("  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n", "  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n  { name = \"scratch\", bytes = 64 },\n")],
        version: "1.1", rule: "LAYOUT_ROW_ADDED", path: "image.scratch", class: S::Breaking,
        advice: "give the value `region.scratch` since = \"1.1\", or the row optional = true", holds: false },
    Row { change: "the same, the value with since = \"1.1\"",
        edits: &[("  { name = \"mailbox\", value = 4 },\n", "  { name = \"mailbox\", value = 4 },\n  { name = \"scratch\", value = 5, since = \"1.1\" },\n"),
                 ("  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n", "  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n  { name = \"scratch\", bytes = 64 },\n")],
        version: "1.1", rule: "LAYOUT_ROW_ADDED_OPTIONAL", path: "image.scratch", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
    Row { change: "the same, the row optional = true",
        edits: &[("  { name = \"mailbox\", value = 4 },\n", "  { name = \"mailbox\", value = 4 },\n  { name = \"scratch\", value = 5 },\n"),
                 ("  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n", "  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n  { name = \"scratch\", bytes = 64, optional = true },\n")],
        version: "1.1", rule: "LAYOUT_ROW_ADDED_OPTIONAL", path: "image.scratch", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a field added in a handshake struct's declared padding",
        edits: &[("  { name = \"_pad20\", type = \"u8[4]\" },\n  { name = \"regions\"", "  { name = \"viewers\", type = \"u32\" },\n  { name = \"regions\"")],
        version: "1.1", rule: "PADDING_REUSED", path: "header.viewers", class: S::Compatible,
        advice: "leave `since` out: `header` has a version handshake", holds: true },
    Row { change: "a struct's writer changed",
        edits: &[("name = \"input\"\nwriter = \"client\"", "name = \"input\"\nwriter = \"host\"")],
        version: "1.1", rule: "WRITER_CHANGED", path: "input", class: S::Breaking,
        advice: "bump the major version", holds: false },
    Row { change: "a party added",
        edits: &[("parties = [\"host\", \"client\"]", "parties = [\"host\", \"client\", \"tool\"]")],
        version: "1.1", rule: "PARTY_ADDED", path: "abi.parties.tool", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a handshake loses its size field",
        edits: &[(", size = \"header_size\" }", " }")],
        version: "1.1", rule: "HANDSHAKE_CHANGED", path: "header.version", class: S::Breaking,
        advice: "bump the major version", holds: false },
    Row { change: "a block grows: its struct, then its row (an effect)",
        edits: &[("  { name = \"buttons\", type = \"u32\" },\n  { name = \"_pad4\", type = \"u8[4]\" },\n", "  { name = \"buttons\", type = \"u32\" },\n  { name = \"_pad4\", type = \"u8[4]\" },\n  { name = \"axes\", type = \"u32[2]\", since = \"2.0\" },\n")],
        version: "2.0", rule: "FIELD_ADDED", path: "input.axes", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "an events ring's capacity",
        edits: &[("{ name = \"entries\", type = \"u64[8]\" }", "{ name = \"entries\", type = \"u64[16]\" }")],
        version: "2.0", rule: "RING_CHANGED", path: "events", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a mailbox's capacity field",
        edits: &[("response_capacity = \"response_capacity\"", "response_capacity = \"response_total\""),
                 ("response_total = \"response_total\"", "response_total = \"response_capacity\"")],
        version: "2.0", rule: "PROTOCOL_CHANGED", path: "mailbox.commands", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "an enum value renamed while its doc is edited",
        edits: &[("{ name = \"failed\", value = 1, doc = \"Refused\" }", "{ name = \"refused\", value = 1, doc = \"The server refused the request\" }")],
        version: "1.1", rule: "VALUE_RENAMED", path: "status.refused", class: S::SourceBreaking,
        advice: "if 1 now means something else than `failed` did, that is a reuse", holds: true },
    Row { change: "a seqlock's counter",
        edits: &[("counter = \"stats.seq\"", "counter = \"stats.frames\"")],
        version: "2.0", rule: "SEQLOCK_COUNTER_CHANGED", path: "stats_lock", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "an atomic word claimed by compare-and-swap instead",
        edits: &[("{ name = \"frames\", type = \"u32\", access = \"atomic\" }", "{ name = \"frames\", type = \"u32\", access = \"cas\" }")],
        version: "2.0", rule: "ACCESS_CAS_CHANGED", path: "stats.frames", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a field's own writer",
        edits: &[("{ name = \"request_len\", type = \"u32\", writer = \"client\" }", "{ name = \"request_len\", type = \"u32\" }")],
        version: "2.0", rule: "WRITER_CHANGED", path: "mailbox_header.request_len", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a seqlock over a new struct",
        edits: &[("[[seqlock]]\n", "[[struct]]\nname = \"gauge\"\nwriter = \"host\"\nfields = [\n  { name = \"seq\", type = \"u32\", access = \"atomic\" },\n  { name = \"level\", type = \"u32\" },\n]\n\n[[seqlock]]\nname = \"gauge_lock\"\ncounter = \"gauge.seq\"\nguards = [\"level\"]\nwriter = \"host\"\nreader = \"client\"\n\n[[seqlock]]\n")],
        version: "1.1", rule: "DECLARATION_ADDED", path: "gauge_lock", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
    Row { change: "removing the [[ring]]",
        edits: &[("[[ring]]\nname = \"events\"\nkind = \"events\"\ntotal = \"journal.total\"\nentries = \"journal.entries\"\n", "")],
        version: "2.0", rule: "RING_REMOVED", path: "events", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "removing the [[mailbox]]",
        edits: &[("[[mailbox]]\nname = \"commands\"\nheader = \"mailbox_header\"\nrequest_seq = \"request_seq\"\nrequest_len = \"request_len\"\nresponse_seq = \"response_seq\"\nstatus = \"status\"\nresponse_len = \"response_len\"\nresponse_total = \"response_total\"\nrequest_capacity = \"request_capacity\"\nresponse_capacity = \"response_capacity\"\nclient = \"client\"\nserver = \"host\"\n", "")],
        version: "2.0", rule: "PROTOCOL_REMOVED", path: "mailbox.commands", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a region that needs more bytes",
        edits: &[("{ name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 }", "{ name = \"mailbox\", struct = \"mailbox_header\", bytes = 512 }")],
        version: "2.0", rule: "LAYOUT_ROW_CHANGED", path: "image.mailbox", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a layout's extent field dropped",
        edits: &[("extent = \"total_size\"\n", "")],
        version: "2.0", rule: "LAYOUT_CHANGED", path: "image", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a region and its index value removed",
        edits: &[("  { name = \"mailbox\", value = 4 },\n", ""), ("  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n", "")],
        version: "2.0", rule: "LAYOUT_ROW_REMOVED", path: "image.mailbox", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a mailbox's client and server swapped (and who writes what)",
        edits: &[("client = \"client\"\nserver = \"host\"", "client = \"host\"\nserver = \"client\""),
                 ("name = \"mailbox_header\"\nwriter = \"host\"", "name = \"mailbox_header\"\nwriter = \"client\""),
                 ("{ name = \"request_seq\", type = \"u32\", access = \"atomic\", writer = \"client\" }", "{ name = \"request_seq\", type = \"u32\", access = \"atomic\", writer = \"host\" }"),
                 ("{ name = \"request_len\", type = \"u32\", writer = \"client\" }", "{ name = \"request_len\", type = \"u32\", writer = \"host\" }")],
        version: "2.0", rule: "PROTOCOL_PARTIES_CHANGED", path: "mailbox.commands", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "an enum renamed",
        edits: &[("name = \"block_region\"\n", "name = \"block_area\"\n"), ("index = \"block_region\"", "index = \"block_area\"")],
        version: "1.1", rule: "ENUM_RENAMED", path: "block_area", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true },
    Row { change: "the ABI renamed",
        edits: &[("name = \"demo\"\n", "name = \"image_abi\"\n")],
        version: "1.1", rule: "ABI_RENAMED", path: "abi.name", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true },
    Row { change: "the C prefix",
        edits: &[("c_prefix = \"demo\"", "c_prefix = \"img\"")],
        version: "1.1", rule: "C_PREFIX_CHANGED", path: "abi.c_prefix", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true },
    Row { change: "the title",
        edits: &[("title = \"A small attachable image\"", "title = \"A small image\"")],
        version: "1.0", rule: "TITLE_CHANGED", path: "abi.title", class: S::Cosmetic,
        advice: "nothing: no bump is needed", holds: true },
    Row { change: "a constant written in hex",
        edits: &[("value = 256", "value = 0x100")],
        version: "1.0", rule: "VALUE_SPELLING", path: "block_size", class: S::Cosmetic,
        advice: "nothing: no bump is needed", holds: true },
    Row { change: "a value's since, outside any handshake",
        edits: &[("{ name = \"ok\", value = 0, doc = \"Done\" }", "{ name = \"ok\", value = 0, doc = \"Done\", since = \"1.0\" }")],
        version: "1.0", rule: "SINCE_CHANGED", path: "status.ok", class: S::Cosmetic,
        advice: "nothing: no bump is needed", holds: true },
    Row { change: "a struct renamed that a seqlock and a layout row name",
        edits: &[("name = \"stats\"\nwriter = \"host\"", "name = \"telemetry\"\nwriter = \"host\""),
                 ("counter = \"stats.seq\"", "counter = \"telemetry.seq\""),
                 ("{ name = \"stats\", struct = \"stats\" }", "{ name = \"stats\", struct = \"telemetry\" }"),
                 ("{ name = \"stats\", struct = \"stats\", at = 0 }", "{ name = \"stats\", struct = \"telemetry\", at = 0 }")],
        version: "1.1", rule: "STRUCT_RENAMED", path: "telemetry", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true },
    Row { change: "a handshake field's since dropped",
        edits: &[("{ name = \"clock\", type = \"u64\", since = \"1.0\" }", "{ name = \"clock\", type = \"u64\" }")],
        version: "1.1", rule: "HANDSHAKE_SINCE_CHANGED", path: "header.clock", class: S::Breaking,
        advice: "put the since back, or bump the major version", holds: false },
    Row { change: "a file record placed elsewhere",
        edits: &[("{ name = \"journal\", struct = \"journal\", after = \"stats\" }", "{ name = \"journal\", struct = \"journal\", at = 4096 }")],
        version: "2.0", rule: "FILE_CHANGED", path: "dump", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a file format removed",
        edits: &[("[[file]]\nname = \"dump\"\nrecords = [\n  { name = \"stats\", struct = \"stats\", at = 0 },\n  { name = \"journal\", struct = \"journal\", after = \"stats\" },\n]\n", "")],
        version: "2.0", rule: "FILE_REMOVED", path: "dump", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a template's output moved",
        edits: &[("output = \"demo.txt\"", "output = \"docs/demo.txt\"")],
        version: "1.1", rule: "TEMPLATE_OUTPUT_CHANGED", path: "demo.txt.j2", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a template removed",
        edits: &[("[[template]]\npath = \"demo.txt.j2\"\noutput = \"demo.txt\"\n", "")],
        version: "1.1", rule: "TEMPLATE_REMOVED", path: "demo.txt.j2", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a block header marked extensible",
        edits: &[("name = \"block_header\"\nwriter = \"host\"", "name = \"block_header\"\nwriter = \"host\"\nextensible = true")],
        version: "1.1", rule: "EXTENSIBLE_CHANGED", path: "block_header", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
    Row { change: "an array's length written as the constant of its value",
        edits: &[("{ name = \"entries\", type = \"u64[8]\" }", "{ name = \"entries\", type = \"u64[max_regions]\" }")],
        version: "1.0", rule: "TYPE_SPELLING", path: "journal.entries", class: S::Cosmetic,
        advice: "nothing: no bump is needed", holds: true },
    Row { change: "the client party retired: the host runs alone, the mailbox goes, the host reads its own seqlock",
        edits: &[("parties = [\"host\", \"client\"]", "parties = [\"host\"]"),
                 ("name = \"input\"\nwriter = \"client\"", "name = \"input\"\nwriter = \"host\""),
                 ("{ name = \"request_seq\", type = \"u32\", access = \"atomic\", writer = \"client\" }", "{ name = \"request_seq\", type = \"u32\", access = \"atomic\" }"),
                 ("{ name = \"request_len\", type = \"u32\", writer = \"client\" }", "{ name = \"request_len\", type = \"u32\" }"),
                 ("writer = \"host\"\nreader = \"client\"\n", "writer = \"host\"\nreader = \"host\"\n"),
                 ("[[mailbox]]\nname = \"commands\"\nheader = \"mailbox_header\"\nrequest_seq = \"request_seq\"\nrequest_len = \"request_len\"\nresponse_seq = \"response_seq\"\nstatus = \"status\"\nresponse_len = \"response_len\"\nresponse_total = \"response_total\"\nrequest_capacity = \"request_capacity\"\nresponse_capacity = \"response_capacity\"\nclient = \"client\"\nserver = \"host\"\n", "")],
        version: "2.0", rule: "PARTY_REMOVED", path: "abi.parties.client", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a constant given a wider type",
        edits: &[("name = \"block_size\"\nvalue = 256", "name = \"block_size\"\nvalue = 256\ntype = \"u64\"")],
        version: "1.1", rule: "CONST_TYPE_CHANGED", path: "block_size", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "the mailbox retired, and its status enum with it: the status word a plain u32",
        edits: &[("[[enum]]\nname = \"status\"\nrepr = \"u32\"\nvalues = [\n  { name = \"ok\", value = 0, doc = \"Done\" },\n  { name = \"failed\", value = 1, doc = \"Refused\" },\n]\n\n", ""),
                 ("{ name = \"status\", type = \"status\" }", "{ name = \"status\", type = \"u32\" }"),
                 ("[[mailbox]]\nname = \"commands\"\nheader = \"mailbox_header\"\nrequest_seq = \"request_seq\"\nrequest_len = \"request_len\"\nresponse_seq = \"response_seq\"\nstatus = \"status\"\nresponse_len = \"response_len\"\nresponse_total = \"response_total\"\nrequest_capacity = \"request_capacity\"\nresponse_capacity = \"response_capacity\"\nclient = \"client\"\nserver = \"host\"\n", "")],
        version: "2.0", rule: "ENUM_REMOVED", path: "status", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "the mailbox retired, and its status enum made a flag set (0 is no flag: `ok` goes)",
        edits: &[("[[enum]]\nname = \"status\"\nrepr = \"u32\"\nvalues = [\n  { name = \"ok\", value = 0, doc = \"Done\" },\n", "[[flags]]\nname = \"status\"\nrepr = \"u32\"\nvalues = [\n"),
                 ("[[mailbox]]\nname = \"commands\"\nheader = \"mailbox_header\"\nrequest_seq = \"request_seq\"\nrequest_len = \"request_len\"\nresponse_seq = \"response_seq\"\nstatus = \"status\"\nresponse_len = \"response_len\"\nresponse_total = \"response_total\"\nrequest_capacity = \"request_capacity\"\nresponse_capacity = \"response_capacity\"\nclient = \"client\"\nserver = \"host\"\n", "")],
        version: "2.0", rule: "ENUM_KIND_CHANGED", path: "status", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a seqlock over an existing struct, its counter in the struct's padding",
        edits: &[("  { name = \"buttons\", type = \"u32\" },\n  { name = \"_pad4\", type = \"u8[4]\" },\n", "  { name = \"buttons\", type = \"u32\" },\n  { name = \"seq\", type = \"u32\", access = \"atomic\", since = \"2.0\" },\n"),
                 ("[[ring]]\n", "[[seqlock]]\nname = \"input_lock\"\ncounter = \"input.seq\"\nguards = [\"buttons\"]\nwriter = \"client\"\nreader = \"host\"\n\n[[ring]]\n")],
        version: "2.0", rule: "SEQLOCK_ADDED", path: "input_lock", class: S::Breaking,
        advice: "bump the major version, or put the seqlock on a new struct", holds: true },
    Row { change: "an events ring over an existing counter, its entries in the struct's padding",
        edits: &[("  { name = \"load\", type = \"u32\" },\n  { name = \"_pad20\", type = \"u8[4]\" },\n", "  { name = \"load\", type = \"u32\" },\n  { name = \"loads\", type = \"u8[4]\", since = \"2.0\" },\n"),
                 ("[[mailbox]]\n", "[[ring]]\nname = \"frame_loads\"\nkind = \"events\"\ntotal = \"stats.frames\"\nentries = \"stats.loads\"\n\n[[mailbox]]\n")],
        version: "2.0", rule: "RING_ADDED", path: "frame_loads", class: S::Breaking,
        advice: "bump the major version, or put the ring in a new struct", holds: true },
    Row { change: "a region nested as a block, laid out by a new layout over the existing block header",
        edits: &[("[[enum]]\nname = \"status\"", "[[enum]]\nname = \"mailbox_region\"\nrepr = \"u32\"\nvalues = [\n  { name = \"commands\", value = 0 },\n]\n\n[[enum]]\nname = \"status\""),
                 ("{ name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 }", "{ name = \"mailbox\", blocks = \"mailbox_block\", count = 1, stride = 512 }"),
                 ("[[file]]\n", "[[layout]]\nname = \"mailbox_block\"\nheader = \"block_header\"\ntable = \"regions\"\nindex = \"mailbox_region\"\nextent = \"size\"\nrows = [\n  { name = \"commands\", struct = \"mailbox_header\", bytes = 256 },\n]\n\n[[file]]\n")],
        version: "1.1", rule: "LAYOUT_ADDED", path: "mailbox_block", class: S::Breaking,
        advice: "bump the major version, or lay out a new header", holds: false },
    Row { change: "a nested layout removed: its region holds the structs directly",
        edits: &[("[[layout]]\nname = \"block\"\nheader = \"block_header\"\ntable = \"regions\"\nindex = \"block_region\"\nextent = \"size\"\nrows = [\n  { name = \"input\", struct = \"input\" },\n]\n\n", ""),
                 ("{ name = \"blocks\", blocks = \"block\", count = 2, stride = \"block_size\" }", "{ name = \"blocks\", struct = \"input\", count = 2 }")],
        version: "2.0", rule: "LAYOUT_REMOVED", path: "block", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a version handshake on an existing struct, in its padding",
        edits: &[("name = \"input\"\nwriter = \"client\"\nfields = [\n  { name = \"buttons\", type = \"u32\" },\n  { name = \"_pad4\", type = \"u8[4]\" },\n", "name = \"input\"\nwriter = \"client\"\nextensible = true\nversion = { major = \"major\", minor = \"minor\" }\nfields = [\n  { name = \"buttons\", type = \"u32\" },\n  { name = \"major\", type = \"u16\", since = \"2.0\" },\n  { name = \"minor\", type = \"u16\", since = \"2.0\" },\n")],
        version: "2.0", rule: "HANDSHAKE_ADDED", path: "input.version", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "the handshake removed, and with it the layouts that a mapping needs it for",
        edits: &[("version = { magic = \"magic\", major = \"major\", minor = \"minor\", size = \"header_size\" }\n", ""),
                 ("[[layout]]\nname = \"image\"\nheader = \"header\"\ntable = \"regions\"\nindex = \"region\"\nextent = \"total_size\"\nrows = [\n  { name = \"header\", struct = \"header\" },\n  { name = \"blocks\", blocks = \"block\", count = 2, stride = \"block_size\" },\n  { name = \"stats\", struct = \"stats\" },\n  { name = \"journal\", struct = \"journal\" },\n  { name = \"mailbox\", struct = \"mailbox_header\", bytes = 256 },\n]\n\n", ""),
                 ("[[layout]]\nname = \"block\"\nheader = \"block_header\"\ntable = \"regions\"\nindex = \"block_region\"\nextent = \"size\"\nrows = [\n  { name = \"input\", struct = \"input\" },\n]\n\n", "")],
        version: "2.0", rule: "HANDSHAKE_REMOVED", path: "header.version", class: S::Breaking,
        advice: "bump the major version", holds: true },
    Row { change: "a mailbox replaced by one the other way round over the same header (the host asks)",
        edits: &[("name = \"commands\"\n", "name = \"callbacks\"\n"),
                 ("client = \"client\"\nserver = \"host\"", "client = \"host\"\nserver = \"client\""),
                 ("name = \"mailbox_header\"\nwriter = \"host\"", "name = \"mailbox_header\"\nwriter = \"client\""),
                 ("{ name = \"request_seq\", type = \"u32\", access = \"atomic\", writer = \"client\" }", "{ name = \"request_seq\", type = \"u32\", access = \"atomic\", writer = \"host\" }"),
                 ("{ name = \"request_len\", type = \"u32\", writer = \"client\" }", "{ name = \"request_len\", type = \"u32\", writer = \"host\" }")],
        version: "2.0", rule: "PROTOCOL_ADDED", path: "mailbox.callbacks", class: S::Breaking,
        advice: "bump the major version, or give the protocol a new header struct", holds: true },
    Row { change: "a seqlock renamed, nothing else changed",
        edits: &[("name = \"stats_lock\"", "name = \"stats_guard\"")],
        version: "1.1", rule: "DECLARATION_RENAMED", path: "stats_guard", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a mailbox renamed, nothing else changed",
        edits: &[("name = \"commands\"\n", "name = \"requests\"\n")],
        version: "1.1", rule: "DECLARATION_RENAMED", path: "mailbox.requests", class: S::SourceBreaking,
        advice: "bump at least the minor version", holds: true },
    Row { change: "a seqlock read by another party, its writer the same",
        edits: &[("writer = \"host\"\nreader = \"client\"\n", "writer = \"host\"\nreader = \"tool\"\n"),
                 ("parties = [\"host\", \"client\"]", "parties = [\"host\", \"client\", \"tool\"]")],
        version: "1.1", rule: "SEQLOCK_READER_CHANGED", path: "stats_lock", class: S::Compatible,
        advice: "bump at least the minor version", holds: true },
];

fn new_src(row: &Row) -> String {
    let mut edits: Vec<(&str, &str)> = row.edits.to_vec();
    let version = format!("version = \"{}\"", row.version);
    edits.push((V.0, &version));
    edit(&base(), &edits)
}

fn diff_of(new: &str) -> Diff {
    compute_diff(&load(BASE, &base()), &load("new.toml", new))
}

/// Every format of a row's report, one after the other.
fn reports(diff: &Diff, new: &str) -> String {
    let old = base();
    let sources = Sources {
        old_file: Some(BASE),
        old_name: BASE,
        old_src: &old,
        new_file: "new.toml",
        new_src: new,
    };
    format!(
        "==== text\n{}\n==== markdown\n{}\n==== json\n{}\n==== github\n{}",
        render_text(diff, &sources, false),
        render_markdown(diff, &sources).expect("the markdown renders"),
        render_json(diff, &sources),
        render_github(diff, &sources)
    )
}

#[test]
fn the_table() {
    let mut failures = Vec::new();
    for (i, row) in TABLE.iter().enumerate() {
        let new = new_src(row);
        let diff = diff_of(&new);
        let text = reports(&diff, &new);
        // Every change has its rule's class.
        for c in &diff.changes {
            assert_eq!(
                c.severity,
                c.rule().class,
                "{}: {}\n{text}",
                row.change,
                c.path
            );
        }
        let found = diff
            .changes
            .iter()
            .find(|c| c.rule().id == row.rule && c.path == row.path);
        match found {
            None => failures.push(format!(
                "{}: no {} at {}\n{text}",
                row.change, row.rule, row.path
            )),
            Some(c) => {
                if c.severity != row.class {
                    failures.push(format!(
                        "{}: class {:?}, expected {:?}",
                        row.change, c.severity, row.class
                    ));
                }
                if !c.advice.contains(row.advice) {
                    failures.push(format!(
                        "{}: advice {:?} lacks {:?}",
                        row.change, c.advice, row.advice
                    ));
                }
            }
        }
        // The class of the whole change is the row's: nothing else is more severe.
        let worst = diff.groups.iter().map(|g| g.severity).min();
        if worst != Some(row.class) {
            failures.push(format!(
                "{}: the worst group is {worst:?}\n{text}",
                row.change
            ));
        }
        if diff.verdict.ok() != row.holds {
            failures.push(format!(
                "{}: the policy holds: {}\n{text}",
                row.change,
                diff.verdict.ok()
            ));
        }
        insta::assert_snapshot!(
            format!("diff_rules_{i:02}_{}", row.rule.to_ascii_lowercase()),
            text
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A block that grows is one root cause: the block layout's row that holds it needs more
/// bytes as an effect of it, not as a change of its own.
#[test]
fn a_grown_block_row_is_an_effect() {
    let row = TABLE.iter().find(|r| r.rule == "FIELD_ADDED").unwrap();
    let diff = diff_of(&new_src(row));
    let row_change = diff
        .changes
        .iter()
        .position(|c| c.rule().id == "LAYOUT_ROW_CHANGED" && c.path == "block.input")
        .expect("the block's row changes");
    let group = diff
        .groups
        .iter()
        .find(|g| g.effects.contains(&row_change))
        .expect("the row is an effect");
    assert_eq!(diff.changes[group.root].path, "input.axes");
}

/// The advice of the new row without `since` applies: the value with `since`, or the row
/// `optional`, loads, and the diff then holds at 1.1. The verdict's own proof of "breaking"
/// is the reader's refusal: the new reader requires a row the old producer never writes.
#[test]
fn the_advice_for_a_new_required_row_applies() {
    let breaking = TABLE.iter().find(|r| r.rule == "LAYOUT_ROW_ADDED").unwrap();
    let new = new_src(breaking);
    let diff = diff_of(&new);
    assert!(!diff.verdict.ok());
    // Followed: `since` on the value.
    let with_since = edit(
        &new,
        &[(
            "{ name = \"scratch\", value = 5 }",
            "{ name = \"scratch\", value = 5, since = \"1.1\" }",
        )],
    );
    let diff = diff_of(&with_since);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // Followed: `optional = true` on the row.
    let optional = edit(
        &new,
        &[(
            "{ name = \"scratch\", bytes = 64 }",
            "{ name = \"scratch\", bytes = 64, optional = true }",
        )],
    );
    let diff = diff_of(&optional);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // The new schema's row is required, and its producer-less image is refused: the row's
    // `since` is what lets a 1.1 reader accept a 1.0 image.
    let schema = load("new.toml", &new);
    let image = schema
        .attach
        .layouts
        .iter()
        .find(|l| l.name == "image")
        .unwrap();
    let scratch = image.rows.iter().find(|r| r.name == "scratch").unwrap();
    assert!(!scratch.optional && scratch.since.is_none());
    let schema = load("with_since.toml", &with_since);
    let image = schema
        .attach
        .layouts
        .iter()
        .find(|l| l.name == "image")
        .unwrap();
    let scratch = image.rows.iter().find(|r| r.name == "scratch").unwrap();
    assert_eq!(scratch.since.map(|v| v.to_string()).as_deref(), Some("1.1"));
}

/// A field in a handshake struct's padding: the old advice (`since = "1.1"`) makes the
/// schema invalid; the diff no longer asks for it, and its advice, applied as it reads (no
/// `since`), is a valid schema with the field, for which the policy holds at 1.1.
#[test]
fn the_advice_for_a_field_in_handshake_padding_applies() {
    let row = TABLE.iter().find(|r| r.rule == "PADDING_REUSED").unwrap();
    let new = new_src(row);
    let with_since = edit(
        &new,
        &[(
            "{ name = \"viewers\", type = \"u32\" }",
            "{ name = \"viewers\", type = \"u32\", since = \"1.1\" }",
        )],
    );
    let errors =
        load_schema(&with_since).expect_err("since in the middle of a handshake struct is invalid");
    let text = errors.render("with_since.toml", &with_since);
    assert!(text.contains("follows"), "{text}");
    // The advice as applied: the field, without since.
    let schema = load("new.toml", &new);
    let header = schema
        .abi
        .structs
        .iter()
        .find(|s| s.name == "header")
        .unwrap();
    assert!(
        header
            .fields
            .iter()
            .any(|f| f.name == "viewers" && f.since.is_none())
    );
    let diff = diff_of(&new);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // The alternative it names: appended after the last field with since, also valid and
    // compatible.
    let appended = edit(
        &base(),
        &[
            (V.0, "version = \"1.1\""),
            (
                "  { name = \"clock\", type = \"u64\", since = \"1.0\" },\n",
                "  { name = \"clock\", type = \"u64\", since = \"1.0\" },\n  { name = \"viewers\", type = \"u32\", since = \"1.1\" },\n  { name = \"_pad100\", type = \"u8[4]\", since = \"1.1\" },\n",
            ),
        ],
    );
    let diff = diff_of(&appended);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    assert!(
        diff.changes
            .iter()
            .any(|c| c.rule().id == "FIELD_APPENDED" && c.path == "header.viewers")
    );
}

/// Which rules a case shows: this table, the fixture pairs of tests/diff.rs, and the bridge's
/// real 0.8 → 0.9 history. Every rule has one: a new rule fails this test, naming itself,
/// until a case shows it.
#[test]
fn rules_without_a_case_are_listed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut seen: Vec<&'static str> = Vec::new();
    let mut note = |diff: &Diff| {
        for c in &diff.changes {
            if !seen.contains(&c.rule().id) {
                seen.push(c.rule().id);
            }
        }
    };
    for row in TABLE {
        note(&diff_of(&new_src(row)));
    }
    let dir = format!("{root}/tests/fixtures/diff");
    let mut pairs: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the diff fixtures")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("new.toml").is_file())
        .map(|e| {
            let p = e.path();
            (
                std::fs::read_to_string(p.join("old.toml")).unwrap(),
                std::fs::read_to_string(p.join("new.toml")).unwrap(),
            )
        })
        .filter(|(_, new)| load_schema(new).is_ok())
        .collect();
    pairs.push((
        std::fs::read_to_string(format!("{dir}/bridge-0.8.toml")).unwrap(),
        std::fs::read_to_string(format!("{root}/schema.toml")).unwrap(),
    ));
    for (old, new) in &pairs {
        note(&compute_diff(
            &load("old.toml", old),
            &load("new.toml", new),
        ));
    }
    let missing: Vec<&str> = abi_codegen::diff::RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !seen.contains(id))
        .collect();
    assert!(missing.is_empty(), "rules with no case: {missing:?}");
}

/// What the verdicts of the new-row cases claim, done by the generated Python bindings:
/// an image a 1.0 producer lays out is refused by the 1.1 reader whose new row is required
/// (LAYOUT_ROW_ADDED, breaking), and accepted by the 1.1 reader whose row has `since`
/// (LAYOUT_ROW_ADDED_OPTIONAL, compatible); both 1.1 images attach in the 1.0 reader.
#[test]
fn the_new_row_verdicts_are_what_attach_does() {
    let required = TABLE.iter().find(|r| r.rule == "LAYOUT_ROW_ADDED").unwrap();
    let with_since = TABLE
        .iter()
        .find(|r| r.rule == "LAYOUT_ROW_ADDED_OPTIONAL" && r.edits[0].1.contains("since"))
        .unwrap();
    let dir = common::tools::scratch("diff_rules_attach");
    for (module, src) in [
        ("v10", base()),
        ("v11_required", new_src(required)),
        ("v11_since", new_src(with_since)),
    ] {
        let schema = load(module, &src);
        let text = abi_codegen::language_backend::python::render_python(&schema, "schema.toml")
            .expect("the module renders");
        std::fs::write(dir.join(format!("{module}.py")), text).expect("write the module");
    }
    let script = r#"
import v10, v11_required, v11_since
old = v10.lay_out()
try:
    v11_required.attach(bytes(old))
    print("required: attached")
except v11_required.AttachError as e:
    print("required:", e.check)
print("since:", v11_since.attach(bytes(old)).producer)
print("old reads new:", v10.attach(bytes(v11_required.lay_out())).producer, v10.attach(bytes(v11_since.lay_out())).producer)
"#;
    let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", script], &dir);
    assert_eq!(
        out,
        "required: region_missing\nsince: (1, 0)\nold reads new: (1, 1) (1, 1)\n"
    );
}

/// The verdicts that say "compatible" (every row whose worst class is compatible,
/// source-breaking or cosmetic), done by the generated Python bindings: the image each side
/// lays out attaches in the other side's reader, every block included.
#[test]
fn compatible_rows_attach_both_ways() {
    let dir = common::tools::scratch("diff_rules_both_ways");
    let base_text =
        abi_codegen::language_backend::python::render_python(&load(BASE, &base()), "schema.toml")
            .expect("the base module renders");
    std::fs::write(dir.join("old.py"), base_text).expect("write old.py");
    let mut names = Vec::new();
    for (i, row) in TABLE.iter().enumerate() {
        if row.class == S::Breaking {
            continue;
        }
        let src = new_src(row);
        let diff = diff_of(&src);
        assert!(
            diff.groups.iter().all(|g| g.severity != S::Breaking),
            "{}",
            row.change
        );
        let text = abi_codegen::language_backend::python::render_python(
            &load("new.toml", &src),
            "schema.toml",
        )
        .expect("the module renders");
        let name = format!("new_{i:02}");
        std::fs::write(dir.join(format!("{name}.py")), text).expect("write the module");
        names.push(name);
    }
    assert!(names.len() >= 10, "{names:?}");
    let script = format!(
        r#"
import importlib, old
def every_block(h):
    n = 0
    for i in range(2):
        h.blocks(i)
        n += 1
    return n
for name in {names:?}:
    new = importlib.import_module(name)
    a = new.attach(bytes(old.lay_out()))
    b = old.attach(bytes(new.lay_out()))
    print(name, a.producer, b.producer, every_block(a) + every_block(b))
"#
    );
    let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", &script], &dir);
    let expected: String = names
        .iter()
        .map(|n| {
            let new = TABLE[n[4..].parse::<usize>().unwrap()].version;
            let (major, minor) = new.split_once('.').unwrap();
            format!("{n} (1, 0) ({major}, {minor}) 4\n")
        })
        .collect();
    assert_eq!(out, expected);
}

/// An array that grows is one root cause: the struct that holds it grows, and the ring over
/// it, the region that holds it and the file record of it follow.
#[test]
fn a_grown_array_is_one_root_cause_for_ring_region_and_file() {
    let row = TABLE.iter().find(|r| r.rule == "RING_CHANGED").unwrap();
    let diff = diff_of(&new_src(row));
    assert_eq!(diff.groups.len(), 1, "{:#?}", diff.changes);
    let g = &diff.groups[0];
    assert_eq!(diff.changes[g.root].path, "journal.entries");
    let effects: Vec<(&str, &str)> = g
        .effects
        .iter()
        .map(|i| (diff.changes[*i].rule().id, diff.changes[*i].path.as_str()))
        .collect();
    assert_eq!(
        effects,
        [
            ("STRUCT_SIZE_CHANGED", "journal"),
            ("RING_CHANGED", "events"),
            ("LAYOUT_ROW_CHANGED", "image.journal"),
            ("FILE_CHANGED", "dump"),
        ]
    );
}
