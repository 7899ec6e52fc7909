//! The rules of `abi-codegen diff`: one per [`ChangeKind`], each with a stable ID, a
//! category, its class, the reason from the point of view of a reader or writer built at the
//! old version talking to one built at the new version, a before/after example and the fix.
//! `diff --rules` prints them, and codegen/README.md's table of rules is this table.

use std::fmt::Write;

use super::change::{Change, ChangeKind as K, Severity};

/// One rule of the diff.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Stable and SCREAMING_SNAKE_CASE: `FIELD_MOVED`.
    pub id: &'static str,
    pub kind: K,
    /// What the rule is about: `FIELD`, `SEQLOCK`, `LAYOUT`, ...
    pub category: &'static str,
    pub class: Severity,
    /// Why it has its class: what an old reader or writer meets in a new one.
    pub reason: &'static str,
    /// The schema before and after, in the schema's own words.
    pub before: &'static str,
    pub after: &'static str,
    /// What to do.
    pub fix: &'static str,
}

const fn rule(
    id: &'static str,
    kind: K,
    category: &'static str,
    class: Severity,
    reason: &'static str,
    (before, after): (&'static str, &'static str),
    fix: &'static str,
) -> Rule {
    Rule {
        id,
        kind,
        category,
        class,
        reason,
        before,
        after,
        fix,
    }
}

use Severity::{Breaking as B, Compatible as C, Cosmetic as D, SourceBreaking as S};

const MAJOR: &str = "bump the major version, or undo the change";
const MINOR: &str = "bump at least the minor version";
const RENAME: &str =
    "bump at least the minor version; code that names the old name must take the new one";
const NOTHING: &str = "nothing: no bump is needed";

/// Every rule, by category, in the order `diff --rules` prints them: one line each.
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // ABI
    rule("ABI_RENAMED", K::AbiRenamed, "ABI", S, "the bytes are the same, but the generated files and modules take the new name", ("name = \"demo\"", "name = \"demo2\""), RENAME),
    rule("C_PREFIX_CHANGED", K::CPrefixChanged, "ABI", S, "the bytes are the same, but every C name changes", ("c_prefix = \"demo\"", "c_prefix = \"dm\""), RENAME),
    rule("TITLE_CHANGED", K::TitleChanged, "ABI", D, "doc text only", ("title = \"Demo\"", "title = \"Demo ABI\""), NOTHING),
    rule("PARTY_ADDED", K::PartyAdded, "ABI", C, "a new party; every old party keeps its role", ("parties = [\"host\"]", "parties = [\"host\", \"tool\"]"), MINOR),
    rule("PARTY_REMOVED", K::PartyRemoved, "ABI", B, "a party built at the old version still reads and writes what the new version says no one does", ("parties = [\"host\", \"tool\"]", "parties = [\"host\"]"), MAJOR),
    // CONSTANT
    rule("CONST_ADDED", K::ConstAdded, "CONSTANT", C, "a new name; nothing old changes", ("", "{ name = \"max_users\", value = 8 }"), MINOR),
    rule("CONST_REMOVED", K::ConstRemoved, "CONSTANT", B, "code built at the old version uses it", ("{ name = \"timeout_ms\", value = 100 }", ""), MAJOR),
    rule("CONST_RENAMED", K::ConstRenamed, "CONSTANT", S, "the same value and type; code that names the old name does not compile", ("{ name = \"timeout_ms\", value = 100 }", "{ name = \"timeout_millis\", value = 100 }"), RENAME),
    rule("CONST_VALUE_CHANGED", K::ConstValueChanged, "CONSTANT", B, "readers built at the old version expect the old value, and arrays it sizes change", ("{ name = \"max_items\", value = 4 }", "{ name = \"max_items\", value = 8 }"), MAJOR),
    rule("CONST_TYPE_CHANGED", K::ConstTypeChanged, "CONSTANT", S, "the same value in another type; code that uses it may not compile", ("{ name = \"limit\", value = 4, type = \"u32\" }", "{ name = \"limit\", value = 4, type = \"u64\" }"), MINOR),
    // ENUM
    rule("ENUM_ADDED", K::EnumAdded, "ENUM", C, "a new type; nothing old changes", ("", "[[enum]] name = \"mode\""), MINOR),
    rule("ENUM_REMOVED", K::EnumRemoved, "ENUM", B, "code built at the old version uses it", ("[[enum]] name = \"mode\"", ""), MAJOR),
    rule("ENUM_RENAMED", K::EnumRenamed, "ENUM", S, "the same representation and values; code that names the old name does not compile", ("[[enum]] name = \"mode\"", "[[enum]] name = \"run_mode\""), RENAME),
    rule("ENUM_KIND_CHANGED", K::EnumKindChanged, "ENUM", B, "readers built at the old version read its numbers as single values where they are sets of bits, or the reverse", ("[[enum]] name = \"caps\"", "[[flags]] name = \"caps\""), MAJOR),
    rule("ENUM_REPR_CHANGED", K::EnumReprChanged, "ENUM", B, "readers built at the old version read it in the old size; every field of this type moves what follows it", ("repr = \"u8\"", "repr = \"u16\""), MAJOR),
    rule("VALUE_ADDED", K::ValueAdded, "ENUM", C, "a number no value had: a reader built at the old version sees an unknown value, which it must already tolerate", ("values = [{ name = \"idle\", value = 0 }]", "values = [{ name = \"idle\", value = 0 }, { name = \"done\", value = 1 }]"), MINOR),
    rule("VALUE_REMOVED", K::ValueRemoved, "ENUM", B, "readers built at the old version still use the number, and writers still write it", ("{ name = \"busy\", value = 1 }", ""), MAJOR),
    rule("VALUE_RENAMED", K::ValueRenamed, "ENUM", S, "the same number (its doc may change too); code that names the old name does not compile", ("{ name = \"busy\", value = 1 }", "{ name = \"working\", value = 1 }"), RENAME),
    rule("VALUE_RENUMBERED", K::ValueRenumbered, "ENUM", B, "readers built at the old version know the value by its old number", ("{ name = \"busy\", value = 1 }", "{ name = \"busy\", value = 2 }"), MAJOR),
    rule("VALUE_REUSED", K::ValueReused, "ENUM", B, "a number that meant one value now means another, and old readers still read it the old way", ("{ name = \"write\", value = 2 }", "{ name = \"exec\", value = 2 }"), "bump the major version, or give the new value a number no value had"),
    // STRUCT
    rule("STRUCT_ADDED", K::StructAdded, "STRUCT", C, "a new type; nothing old changes", ("", "[[struct]] name = \"stats\""), MINOR),
    rule("STRUCT_REMOVED", K::StructRemoved, "STRUCT", B, "code built at the old version uses it", ("[[struct]] name = \"stats\"", ""), MAJOR),
    rule("STRUCT_RENAMED", K::StructRenamed, "STRUCT", S, "the same size, alignment and fields; code that names the old name does not compile", ("[[struct]] name = \"vec2\"", "[[struct]] name = \"point\""), RENAME),
    rule("STRUCT_SIZE_CHANGED", K::StructSizeChanged, "STRUCT", B, "readers built at the old version read it in its old size, and whatever holds it moves", ("size 8", "size 12"), "bump the major version, or put new fields in declared padding, or at the end of an extensible struct"),
    rule("STRUCT_ALIGN_CHANGED", K::StructAlignChanged, "STRUCT", B, "whatever holds it puts it at another offset", ("align 4", "align 8"), MAJOR),
    rule("STRUCT_GROWN", K::StructGrown, "STRUCT", C, "an extensible record grew at its end: readers built at the old version learn its size at run time and read the bytes they know", ("extensible = true, size 16", "extensible = true, size 24"), MINOR),
    rule("EXTENSIBLE_CHANGED", K::ExtensibleChanged, "STRUCT", C, "the bytes are the same: marked, readers from this version on learn its size at run time; unmarked, later versions may not grow it at its end", ("extensible = false", "extensible = true"), MINOR),
    // FIELD
    rule("FIELD_ADDED", K::FieldAdded, "FIELD", B, "it takes bytes where readers built at the old version read something else, or grows the struct", ("{ name = \"x\", type = \"f32\" }", "{ name = \"x\", type = \"f32\" }, { name = \"z\", type = \"f32\" }"), "put it in declared padding, or at the end of an extensible struct with since, or bump the major version"),
    rule("PADDING_REUSED", K::PaddingReused, "FIELD", C, "its bytes were declared padding, which readers built at the old version do not read; a reader built at the new version reads what old writers left there (zero when they zero their padding)", ("{ name = \"_pad\", type = \"u8[4]\" }", "{ name = \"flags\", type = \"u32\" }"), MINOR),
    rule("TAIL_PADDING_REUSED", K::TailPaddingReused, "FIELD", C, "its bytes were the struct's trailing padding, and the size stays the same", ("{ name = \"_tail\", type = \"u8[4]\" }", "{ name = \"level\", type = \"u32\" }"), MINOR),
    rule("FIELD_APPENDED", K::FieldAppended, "FIELD", C, "past the old end of an extensible record: readers built at the old version stop before it; readers built at the new version see from the producer's size or version that an old producer has none", ("", "{ name = \"total\", type = \"u64\", since = \"1.1\" }"), "bump at least the minor version and give the field since = the new version"),
    rule("FIELD_APPENDED_WITHOUT_SINCE", K::FieldAppendedWithoutSince, "FIELD", B, "past the old end of a struct with a version handshake, but without since: every producer must write it, so a reader built at the new version refuses the images of producers built at the old version, which end before it", ("", "{ name = \"total\", type = \"u64\" }"), "give the field since = the new version (then it is compatible and a minor bump does), or bump the major version"),
    rule("FIELD_REMOVED", K::FieldRemoved, "FIELD", B, "readers built at the old version still read it, and code uses it", ("{ name = \"value\", type = \"u32\" }", ""), "bump the major version, or keep the bytes as declared padding (`_value`)"),
    rule("FIELD_RENAMED", K::FieldRenamed, "FIELD", S, "the same offset, size and type; code that names the old name does not compile", ("{ name = \"value\", type = \"u32\" }", "{ name = \"amount\", type = \"u32\" }"), RENAME),
    rule("FIELD_MOVED", K::FieldMoved, "FIELD", B, "readers built at the old version read it at its old offset", ("offset 0x0004", "offset 0x0008"), MAJOR),
    rule("FIELD_RESIZED", K::FieldResized, "FIELD", B, "readers built at the old version read it in its old size", ("{ name = \"tag\", type = \"u8[4]\" }", "{ name = \"tag\", type = \"u8[8]\" }"), MAJOR),
    rule("FIELD_RETYPED", K::FieldRetyped, "FIELD", B, "readers built at the old version read the same bytes as another type", ("{ name = \"value\", type = \"u32\" }", "{ name = \"value\", type = \"f32\" }"), MAJOR),
    rule("TYPE_SPELLING", K::TypeSpelling, "FIELD", D, "the same type written another way; the bytes and the code are the same", ("type = \"u8[16]\"", "type = \"u8[max_players]\""), NOTHING),
    rule("VALUE_SPELLING", K::ValueSpelling, "FIELD", D, "the same number written another way", ("value = 16", "value = 0x10"), NOTHING),
    // ACCESS
    rule("ACCESS_ATOMIC_TO_PLAIN", K::AccessAtomicToPlain, "ACCESS", B, "a writer built at the new version stores it without release, so a reader built at the old version that loads it with acquire may see the bytes it publishes before they are written; the atomic accessors (fetch_add, load, store) disappear", ("{ name = \"count\", type = \"u32\", access = \"atomic\" }", "{ name = \"count\", type = \"u32\" }"), "keep access = \"atomic\", or bump the major version"),
    rule("ACCESS_PLAIN_TO_ATOMIC", K::AccessPlainToAtomic, "ACCESS", S, "the same bytes; the generated code reads and writes it through atomic accessors instead of plain ones", ("{ name = \"count\", type = \"u32\" }", "{ name = \"count\", type = \"u32\", access = \"atomic\" }"), MINOR),
    rule("ACCESS_CAS_CHANGED", K::AccessCasChanged, "ACCESS", B, "a party built at one version claims the word by compare-and-swap while one built at the other stores it outright, so a claim can be lost", ("access = \"cas\"", "access = \"atomic\""), MAJOR),
    rule("WRITER_CHANGED", K::WriterChanged, "ACCESS", B, "a party built at the old version still writes where the new version says another party writes (two writers), or no longer writes what a new reader waits for", ("writer = \"host\"", "writer = \"client\""), MAJOR),
    // SEQLOCK
    rule("SEQLOCK_ADDED", K::SeqlockAdded, "SEQLOCK", B, "writers built at the old version write the bytes without making the counter odd, so a reader built at the new version takes torn bytes for a consistent read", ("", "[[seqlock]] name = \"frame\", counter = \"frame.seq\""), "bump the major version, or put the seqlock on a new struct"),
    rule("SEQLOCK_REMOVED", K::SeqlockRemoved, "SEQLOCK", B, "writers built at the new version no longer make the counter odd while they write: a reader built at the old version takes torn bytes for a consistent read; every read_/write_ of it disappears", ("[[seqlock]] name = \"frame\"", ""), MAJOR),
    rule("SEQLOCK_COUNTER_CHANGED", K::SeqlockCounterChanged, "SEQLOCK", B, "readers and writers built at the two versions watch different counters", ("counter = \"frame.seq\"", "counter = \"frame.seq2\""), MAJOR),
    rule("SEQLOCK_GUARDS_CHANGED", K::SeqlockGuardsChanged, "SEQLOCK", B, "the guarded bytes differ: a writer built at one version writes bytes the other's reader takes as guarded (or the reverse) outside the counter's odd window (a name given to reserved bytes inside the guarded range changes no guarded byte: that is PADDING_REUSED)", ("guards = [\"rest\"]", "guards = [\"tick\"]"), MAJOR),
    rule("SEQLOCK_READER_CHANGED", K::SeqlockReaderChanged, "SEQLOCK", C, "the writer writes and makes the counter odd as before, and a reader only takes copies: a reader built at either version reads consistent bytes; the new reader is who the generated docs name", ("writer = \"host\", reader = \"client\"", "writer = \"host\", reader = \"tool\""), MINOR),
    rule("SEQLOCK_PARTIES_CHANGED", K::SeqlockPartiesChanged, "SEQLOCK", B, "the writer changed: the party built at the old version writes where the new version has another party write (two writers), or reads where it now writes", ("writer = \"host\", reader = \"client\"", "writer = \"client\", reader = \"host\""), MAJOR),
    // RING
    rule("RING_ADDED", K::RingAdded, "RING", B, "writers built at the old version do not publish through the ring's fields, so a reader built at the new version waits for slots or entries that are never published, or reads ones that never were", ("", "[[ring]] name = \"frames\""), "bump the major version, or put the ring in a new struct and a new optional layout row"),
    rule("RING_REMOVED", K::RingRemoved, "RING", B, "readers built at the old version wait for publications that writers built at the new version no longer make", ("[[ring]] name = \"frames\"", ""), MAJOR),
    rule("RING_CHANGED", K::RingChanged, "RING", B, "a reader built at one version finds slots, heads or entries where the other's writer does not put them", ("head = \"header.frame_seq\"", "head = \"header.frame_count\""), MAJOR),
    // LAYOUT
    rule("LAYOUT_ADDED", K::LayoutAdded, "LAYOUT", B, "producers built at the old version do not fill the table, so a reader built at the new version refuses their images", ("", "[[layout]] name = \"image\", header = \"header\""), "bump the major version, or lay out a new header"),
    rule("LAYOUT_REMOVED", K::LayoutRemoved, "LAYOUT", B, "readers built at the old version look for regions in a table that producers built at the new version no longer fill", ("[[layout]] name = \"image\"", ""), MAJOR),
    rule("LAYOUT_CHANGED", K::LayoutChanged, "LAYOUT", B, "a reader built at one version reads the table, its index, extent or count where the other's producer does not write them", ("table = \"regions\"", "table = \"regions2\""), MAJOR),
    rule("LAYOUT_ROW_ADDED", K::LayoutRowAdded, "LAYOUT", B, "every producer must write the row, and producers built at the old version do not: a reader built at the new version refuses their images (region_missing)", ("rows = [{ name = \"header\", struct = \"header\" }]", "rows = [{ name = \"header\", struct = \"header\" }, { name = \"scratch\", bytes = 64 }]"), "give the row's index value since = the new version, or the row optional = true"),
    rule("LAYOUT_ROW_ADDED_OPTIONAL", K::LayoutRowAddedOptional, "LAYOUT", C, "the row has since or optional = true: a reader built at the new version accepts an image without it, and readers built at the old version do not look for it", ("", "{ name = \"scratch\", bytes = 64, optional = true }"), MINOR),
    rule("LAYOUT_ROW_REMOVED", K::LayoutRowRemoved, "LAYOUT", B, "readers built at the old version look for the row in images that no longer have it", ("{ name = \"scratch\", bytes = 64 }", ""), MAJOR),
    rule("LAYOUT_ROW_OPTIONAL_CHANGED", K::LayoutRowOptionalChanged, "LAYOUT", B, "made optional: a producer built at the new version may leave it out, and a reader built at the old version refuses that image; made required: a reader built at the new version refuses an old image that left it out", ("{ name = \"spare\", bytes = 64 }", "{ name = \"spare\", bytes = 64, optional = true }"), MAJOR),
    rule("LAYOUT_ROW_CHANGED", K::LayoutRowChanged, "LAYOUT", B, "a reader built at one version needs another content or size of the region than the other's producer gives it", ("{ name = \"scratch\", bytes = 64 }", "{ name = \"scratch\", bytes = 128 }"), MAJOR),
    rule("LAYOUT_ROW_OWNER_CHANGED", K::LayoutRowOwnerChanged, "LAYOUT", B, "a host built at one version gives block i to session row i and restores it when the row is freed, and one built at the other does not (or for another session): a client's block is reset under it, or never given back", ("{ name = \"clients\", blocks = \"client_block\", count = 4, stride = 1024 }", "{ name = \"clients\", blocks = \"client_block\", count = 4, stride = 1024, owner = \"client\" }"), MAJOR),
    // GEOMETRY
    rule("GEOMETRY_FOLLOWED_CHANGED", K::GeometryFollowedChanged, "GEOMETRY", C, "readers follow the value from the header, where the host writes the one it was built with: a reader built at the old version reads a new host's value and the reverse; writers built at the old value keep writing it, and readers of either version follow them (a slots ring's count and size, a queue's capacity, a blocks stride: the ring or protocol does not change)", ("{ name = \"log_queue_capacity\", value = 4096 }", "{ name = \"log_queue_capacity\", value = 8192 }"), MINOR),
    rule("GEOMETRY_EQUAL_CHANGED", K::GeometryEqualChanged, "GEOMETRY", B, "readers must find their own value in the header: a reader built at the old version refuses a new host's image (geometry_mismatch), and a reader built at the new version refuses the images of writers built at the old value", ("{ name = \"max_clients\", value = 8 }", "{ name = \"max_clients\", value = 16 }"), MAJOR),
    // HANDSHAKE
    rule("HANDSHAKE_ADDED", K::HandshakeAdded, "HANDSHAKE", B, "producers built at the old version do not write the version (and magic) the new reader checks, so it refuses their images", ("", "version = { magic = \"magic\", major = \"major\", minor = \"minor\" }"), MAJOR),
    rule("HANDSHAKE_REMOVED", K::HandshakeRemoved, "HANDSHAKE", B, "readers built at the old version check a magic and version that producers built at the new version no longer promise", ("version = { magic = \"magic\", major = \"major\", minor = \"minor\" }", ""), MAJOR),
    rule("HANDSHAKE_CHANGED", K::HandshakeChanged, "HANDSHAKE", B, "a reader built at one version checks the magic, version or size where, or as what, the other's producer does not write it", ("major = \"major\"", "major = \"schema_major\""), MAJOR),
    rule("HANDSHAKE_SINCE_CHANGED", K::HandshakeSinceChanged, "HANDSHAKE", B, "a field's since in a struct with a version handshake says which producers write it: a reader built at the new version requires it of producers the old one did not, or the reverse, and refuses their images or reads bytes they never wrote", ("{ name = \"clock\", type = \"u64\", since = \"1.1\" }", "{ name = \"clock\", type = \"u64\" }"), "put the since back, or bump the major version"),
    // FILE
    rule("FILE_ADDED", K::FileAdded, "FILE", C, "a new file format; nothing old changes", ("", "[[file]] name = \"recording\""), MINOR),
    rule("FILE_REMOVED", K::FileRemoved, "FILE", B, "files written at the old version can no longer be read by the generated readers", ("[[file]] name = \"recording\"", ""), MAJOR),
    rule("FILE_CHANGED", K::FileChanged, "FILE", B, "a reader built at one version looks for records, or decodes them, where and how the other's writer does not put them", ("{ name = \"index\", struct = \"index\", at = 0 }", "{ name = \"index\", struct = \"index\", from_end = 64 }"), MAJOR),
    // TEMPLATE
    rule("TEMPLATE_ADDED", K::TemplateAdded, "TEMPLATE", C, "a new output; nothing old changes", ("", "[[template]] path = \"demo.mjs.j2\""), MINOR),
    rule("TEMPLATE_REMOVED", K::TemplateRemoved, "TEMPLATE", S, "the bytes are the same, but the file it wrote is no longer generated", ("[[template]] path = \"demo.mjs.j2\"", ""), MINOR),
    rule("TEMPLATE_OUTPUT_CHANGED", K::TemplateOutputChanged, "TEMPLATE", S, "the bytes are the same, but the generated file has another path", ("output = \"demo.mjs\"", "output = \"js/demo.mjs\""), MINOR),
    // PROTOCOL
    rule("PROTOCOL_ADDED", K::ProtocolAdded, "PROTOCOL", B, "parties built at the old version use the header's bytes without the protocol, so a party built at the new version misreads them", ("", "[[queue]] name = \"log\", header = \"queue_header\""), "bump the major version, or give the protocol a new header struct"),
    rule("PROTOCOL_REMOVED", K::ProtocolRemoved, "PROTOCOL", B, "a party built at the old version still runs the protocol, and no party built at the new version answers it", ("[[queue]] name = \"log\"", ""), MAJOR),
    rule("PROTOCOL_CHANGED", K::ProtocolChanged, "PROTOCOL", B, "the two sides built at different versions use different fields, values or capacities", ("capacity = \"capacity\"", "capacity = \"size\""), MAJOR),
    rule("PROTOCOL_PARTIES_CHANGED", K::ProtocolPartiesChanged, "PROTOCOL", B, "the protocol turns around: a party built at the old version plays the side the new version gives the other", ("writer = \"client\", reader = \"host\"", "writer = \"host\", reader = \"client\""), MAJOR),
    // DIRECTORY
    rule("DIRECTORY_ADDED", K::DirectoryAdded, "DIRECTORY", C, "a new mapping of its own: instances built at the old version do not register in it, so a reader built at the new version lists only instances built at the new version; nothing old changes", ("", "[[directory]] name = \"hosts\", mapping = \"demo.directory\""), MINOR),
    rule("DIRECTORY_REMOVED", K::DirectoryRemoved, "DIRECTORY", B, "instances built at the new version no longer register, so a reader built at the old version lists none of them", ("[[directory]] name = \"hosts\"", ""), MAJOR),
    rule("DIRECTORY_CHANGED", K::DirectoryChanged, "DIRECTORY", B, "instances of every version share one directory: a reader or instance built at one version opens another mapping, or reads and claims rows through fields, states or an owner the other's instances do not use", ("mapping = \"demo.directory\"", "mapping = \"demo.hosts\""), MAJOR),
    rule("DIRECTORY_READER_CHANGED", K::DirectoryReaderChanged, "DIRECTORY", C, "instances register as before, and a reader only copies rows: a reader built at either version lists the same hosts; the new reader is who the generated docs name", ("owner = \"host\", reader = \"client\"", "owner = \"host\", reader = \"tool\""), MINOR),
    // EVENT
    rule("EVENT_ADDED", K::EventAdded, "EVENT", C, "a new event on a word the old version already has: a party built at the old version neither waits on it nor sets it, and a waiter built at the new version wakes at its deadline at the latest, then looks again", ("", "[[event]] name = \"tick\", word = \"header.seq\""), MINOR),
    rule("EVENT_REMOVED", K::EventRemoved, "EVENT", B, "a party built at the old version still sleeps on the event, and no party built at the new version sets it: it wakes only at its deadline", ("[[event]] name = \"tick\"", ""), MAJOR),
    rule("EVENT_CHANGED", K::EventChanged, "EVENT", B, "a waiter and a setter built at different versions sleep on and change different words, or open different objects: the waiter sleeps through what it waits for", ("word = \"header.seq\"", "word = \"header.answer\""), MAJOR),
    rule("DECLARATION_RENAMED", K::DeclarationRenamed, "PROTOCOL", S, "the same bytes and practice under a new name; code that names the old one (its read_/write_ methods, its types) does not compile", ("[[seqlock]] name = \"frame\"", "[[seqlock]] name = \"frame_lock\""), RENAME),
    rule("DECLARATION_ADDED", K::DeclarationAdded, "PROTOCOL", C, "a seqlock, ring, layout, handshake or protocol over structs the old version does not have: nothing old changes", ("", "[[struct]] name = \"stats\" and [[seqlock]] counter = \"stats.seq\""), MINOR),
    rule("FIRST_DESCRIBED", K::FirstDescribed, "PROTOCOL", C, "the old schema declares no parties (or no layouts, or no handshakes) at all: the new declarations describe bytes and practices the diff cannot compare with anything; parties built at the old version must already do what they say", ("parties absent", "parties = [\"host\", \"client\"], writers, seqlocks, ..."), "bump at least the minor version, and check that parties built at the old version already follow every declaration; if one does not, bump the major version"),
    // DOC
    rule("DOC_CHANGED", K::DocChanged, "DOC", D, "doc text only", ("doc = \"A point\"", "doc = \"A point in metres\""), NOTHING),
    rule("SINCE_CHANGED", K::SinceChanged, "DOC", D, "documentation of when the item appeared; the bytes are the same", ("since = \"0.6\"", "since = \"0.7\""), NOTHING),
];

impl Change {
    /// The rule this change falls under.
    pub fn rule(&self) -> &'static Rule {
        rule_of(self.kind)
    }
}

/// The rule of a change kind.
pub fn rule_of(kind: K) -> &'static Rule {
    RULES.iter().find(|r| r.kind == kind).unwrap_or(&FALLBACK)
}

/// Never used while every kind has a rule, which `every_kind_has_one_rule` checks; a lookup
/// cannot fail at run time all the same.
const FALLBACK: Rule = rule(
    "UNCLASSIFIED",
    K::DocChanged,
    "DOC",
    B,
    "no rule describes this change",
    ("", ""),
    MAJOR,
);

fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

fn code(s: &str) -> String {
    if s.is_empty() {
        "—".to_string()
    } else {
        format!("`{}`", md(s))
    }
}

/// The rules as a markdown table: ID, category, class, reason, before, after, fix.
pub fn render_rules_markdown() -> String {
    let mut out = String::from(
        "| Rule | Category | Class | Why (an old reader or writer meets a new one) | Before | After | Fix |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in RULES {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            r.id,
            r.category,
            r.class.label(),
            md(r.reason),
            code(r.before),
            code(r.after),
            md(r.fix)
        );
    }
    out
}

/// The rules as a JSON array, for tools: each rule's id, kind, category, class, reason,
/// before, after and fix.
pub fn render_rules_json() -> String {
    let rules: Vec<serde_json::Value> = RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id,
                "kind": r.kind,
                "category": r.category,
                "class": r.class,
                "reason": r.reason,
                "before": r.before,
                "after": r.after,
                "fix": r.fix,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&rules).unwrap_or_else(|e| {
        // Strings and enums only: serializing cannot fail.
        format!("{{\"error\": \"cannot serialize the rules: {e}\"}}")
    });
    text.push('\n');
    text
}

/// The rules as text, one block per rule.
pub fn render_rules_text() -> String {
    let mut out = String::new();
    for r in RULES {
        let _ = writeln!(out, "{} ({}, {})", r.id, r.category, r.class.label());
        let _ = writeln!(out, "    why:    {}", r.reason);
        let _ = writeln!(
            out,
            "    before: {}",
            if r.before.is_empty() {
                "(nothing)"
            } else {
                r.before
            }
        );
        let _ = writeln!(
            out,
            "    after:  {}",
            if r.after.is_empty() {
                "(nothing)"
            } else {
                r.after
            }
        );
        let _ = writeln!(out, "    fix:    {}", r.fix);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every change kind, by an exhaustive match: a new kind does not compile until it is
    /// listed here, and then fails `every_kind_has_one_rule` until it has a rule.
    fn every_kind() -> Vec<K> {
        let all = vec![
            K::AbiRenamed,
            K::CPrefixChanged,
            K::ConstAdded,
            K::ConstRemoved,
            K::ConstRenamed,
            K::ConstValueChanged,
            K::ConstTypeChanged,
            K::EnumAdded,
            K::EnumRemoved,
            K::EnumRenamed,
            K::EnumKindChanged,
            K::EnumReprChanged,
            K::ValueAdded,
            K::ValueRemoved,
            K::ValueRenamed,
            K::ValueRenumbered,
            K::ValueReused,
            K::StructAdded,
            K::StructRemoved,
            K::StructRenamed,
            K::StructSizeChanged,
            K::StructAlignChanged,
            K::StructGrown,
            K::ExtensibleChanged,
            K::FieldAdded,
            K::PaddingReused,
            K::TailPaddingReused,
            K::FieldAppended,
            K::FieldAppendedWithoutSince,
            K::FieldRemoved,
            K::FieldRenamed,
            K::FieldMoved,
            K::FieldResized,
            K::FieldRetyped,
            K::TypeSpelling,
            K::ValueSpelling,
            K::DocChanged,
            K::SinceChanged,
            K::HandshakeSinceChanged,
            K::TitleChanged,
            K::PartyAdded,
            K::PartyRemoved,
            K::AccessAtomicToPlain,
            K::AccessPlainToAtomic,
            K::AccessCasChanged,
            K::WriterChanged,
            K::SeqlockAdded,
            K::SeqlockRemoved,
            K::SeqlockCounterChanged,
            K::SeqlockGuardsChanged,
            K::SeqlockPartiesChanged,
            K::SeqlockReaderChanged,
            K::RingAdded,
            K::RingRemoved,
            K::RingChanged,
            K::LayoutAdded,
            K::LayoutRemoved,
            K::LayoutChanged,
            K::LayoutRowAdded,
            K::LayoutRowAddedOptional,
            K::LayoutRowRemoved,
            K::LayoutRowOptionalChanged,
            K::LayoutRowChanged,
            K::LayoutRowOwnerChanged,
            K::GeometryFollowedChanged,
            K::GeometryEqualChanged,
            K::HandshakeAdded,
            K::HandshakeRemoved,
            K::HandshakeChanged,
            K::FileAdded,
            K::FileRemoved,
            K::FileChanged,
            K::TemplateAdded,
            K::TemplateRemoved,
            K::TemplateOutputChanged,
            K::ProtocolAdded,
            K::ProtocolRemoved,
            K::ProtocolChanged,
            K::ProtocolPartiesChanged,
            K::DirectoryAdded,
            K::DirectoryRemoved,
            K::DirectoryChanged,
            K::DirectoryReaderChanged,
            K::EventAdded,
            K::EventRemoved,
            K::EventChanged,
            K::DeclarationAdded,
            K::DeclarationRenamed,
            K::FirstDescribed,
        ];
        for k in &all {
            match k {
                K::AbiRenamed
                | K::CPrefixChanged
                | K::ConstAdded
                | K::ConstRemoved
                | K::ConstRenamed
                | K::ConstValueChanged
                | K::ConstTypeChanged
                | K::EnumAdded
                | K::EnumRemoved
                | K::EnumRenamed
                | K::EnumKindChanged
                | K::EnumReprChanged
                | K::ValueAdded
                | K::ValueRemoved
                | K::ValueRenamed
                | K::ValueRenumbered
                | K::ValueReused
                | K::StructAdded
                | K::StructRemoved
                | K::StructRenamed
                | K::StructSizeChanged
                | K::StructAlignChanged
                | K::StructGrown
                | K::ExtensibleChanged
                | K::FieldAdded
                | K::PaddingReused
                | K::TailPaddingReused
                | K::FieldAppended
                | K::FieldAppendedWithoutSince
                | K::FieldRemoved
                | K::FieldRenamed
                | K::FieldMoved
                | K::FieldResized
                | K::FieldRetyped
                | K::TypeSpelling
                | K::ValueSpelling
                | K::DocChanged
                | K::SinceChanged
                | K::HandshakeSinceChanged
                | K::TitleChanged
                | K::PartyAdded
                | K::PartyRemoved
                | K::AccessAtomicToPlain
                | K::AccessPlainToAtomic
                | K::AccessCasChanged
                | K::WriterChanged
                | K::SeqlockAdded
                | K::SeqlockRemoved
                | K::SeqlockCounterChanged
                | K::SeqlockGuardsChanged
                | K::SeqlockPartiesChanged
                | K::SeqlockReaderChanged
                | K::RingAdded
                | K::RingRemoved
                | K::RingChanged
                | K::LayoutAdded
                | K::LayoutRemoved
                | K::LayoutChanged
                | K::LayoutRowAdded
                | K::LayoutRowAddedOptional
                | K::LayoutRowRemoved
                | K::LayoutRowOptionalChanged
                | K::LayoutRowChanged
                | K::LayoutRowOwnerChanged
                | K::GeometryFollowedChanged
                | K::GeometryEqualChanged
                | K::HandshakeAdded
                | K::HandshakeRemoved
                | K::HandshakeChanged
                | K::FileAdded
                | K::FileRemoved
                | K::FileChanged
                | K::TemplateAdded
                | K::TemplateRemoved
                | K::TemplateOutputChanged
                | K::ProtocolAdded
                | K::ProtocolRemoved
                | K::ProtocolChanged
                | K::ProtocolPartiesChanged
                | K::DirectoryAdded
                | K::DirectoryRemoved
                | K::DirectoryChanged
                | K::DirectoryReaderChanged
                | K::EventAdded
                | K::EventRemoved
                | K::EventChanged
                | K::DeclarationAdded
                | K::DeclarationRenamed
                | K::FirstDescribed => {}
            }
        }
        all
    }

    #[test]
    fn every_kind_has_one_rule() {
        let all = every_kind();
        for k in &all {
            assert_ne!(rule_of(*k).id, FALLBACK.id, "{k:?} has no rule");
        }
        assert_eq!(all.len(), RULES.len());
    }

    #[test]
    fn ids_are_unique_and_screaming() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(
                r.id.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{}",
                r.id
            );
            assert!(
                RULES[..i].iter().all(|q| q.id != r.id && q.kind != r.kind),
                "{} twice",
                r.id
            );
            assert_eq!(
                serde_json::to_value(r.kind).unwrap(),
                serde_json::Value::String(r.id.to_ascii_lowercase()),
                "a rule's ID is its kind's name"
            );
        }
    }
}
