//! The diff's changes: what changed (its kind and the item's kind), how much it matters
//! to readers of the old ABI (its severity), and each side's shape.

use serde::Serialize;

use super::verdict::Bump;
use crate::diagnostics::Span;
use crate::ir::Version;

/// How much a change matters to readers built against the old ABI, most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Readers built against the old ABI misread the new one.
    Breaking,
    /// The bytes stay readable, but code that names the item no longer compiles.
    SourceBreaking,
    /// Readers built against the old ABI still read the new one correctly.
    Compatible,
    /// Doc text and spelling: nothing a reader or a compiler sees.
    Cosmetic,
}

impl Severity {
    pub const ALL: [Severity; 4] = [
        Severity::Breaking,
        Severity::SourceBreaking,
        Severity::Compatible,
        Severity::Cosmetic,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Severity::Breaking => "breaking",
            Severity::SourceBreaking => "source-breaking",
            Severity::Compatible => "compatible",
            Severity::Cosmetic => "cosmetic",
        }
    }

    /// The heading of this severity's group in the text and markdown reports.
    pub fn heading(self) -> &'static str {
        match self {
            Severity::Breaking => "Breaking (ABI)",
            Severity::SourceBreaking => "Source-breaking, ABI-compatible",
            Severity::Compatible => "Compatible (ABI)",
            Severity::Cosmetic => "Cosmetic",
        }
    }

    /// The version bump a change of this severity needs.
    pub fn required_bump(self) -> Bump {
        match self {
            Severity::Breaking => Bump::Major,
            Severity::SourceBreaking | Severity::Compatible => Bump::Minor,
            Severity::Cosmetic => Bump::None,
        }
    }
}

/// What a change is. The names are stable: the JSON output and the tests use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    AbiRenamed,
    CPrefixChanged,
    ConstAdded,
    ConstRemoved,
    ConstRenamed,
    ConstValueChanged,
    ConstTypeChanged,
    EnumAdded,
    EnumRemoved,
    EnumRenamed,
    EnumKindChanged,
    EnumReprChanged,
    ValueAdded,
    ValueRemoved,
    ValueRenamed,
    ValueRenumbered,
    /// A number that meant one value now means another.
    ValueReused,
    StructAdded,
    StructRemoved,
    StructRenamed,
    StructSizeChanged,
    StructAlignChanged,
    /// An extensible struct grew at its end.
    StructGrown,
    ExtensibleChanged,
    /// A field that takes bytes no old reader expects it in (a breaking addition).
    FieldAdded,
    /// A field in bytes that were declared padding.
    PaddingReused,
    /// A field in the struct's trailing padding; the size is unchanged.
    TailPaddingReused,
    /// A field past the old end of an extensible struct.
    FieldAppended,
    /// A field past the old end of a struct with a version handshake, without `since`:
    /// every producer must write it.
    FieldAppendedWithoutSince,
    FieldRemoved,
    FieldRenamed,
    FieldMoved,
    FieldResized,
    FieldRetyped,
    /// The same type written another way (`u8[16]` and `u8[max_players]`).
    TypeSpelling,
    /// The same number written another way (`0x10` and `16`, or an expression).
    ValueSpelling,
    DocChanged,
    SinceChanged,
    /// The `since` of a field of a struct with a version handshake.
    HandshakeSinceChanged,
    TitleChanged,
    /// A party added to `[abi] parties`.
    PartyAdded,
    PartyRemoved,
    /// A field's `access` went from atomic or cas to plain.
    AccessAtomicToPlain,
    /// A field's `access` went from plain to atomic or cas.
    AccessPlainToAtomic,
    /// A field's `access` went between atomic and cas.
    AccessCasChanged,
    /// Who writes a struct or a field.
    WriterChanged,
    /// A seqlock over a struct the old schema has.
    SeqlockAdded,
    SeqlockRemoved,
    SeqlockCounterChanged,
    SeqlockGuardsChanged,
    /// A seqlock's writer or reader.
    SeqlockPartiesChanged,
    /// Its reader alone: the writer writes as before.
    SeqlockReaderChanged,
    /// A ring over fields the old schema has.
    RingAdded,
    RingRemoved,
    RingChanged,
    /// A layout table over a header the old schema has.
    LayoutAdded,
    LayoutRemoved,
    /// A layout's header, table, index enum, extent or row count.
    LayoutChanged,
    /// A row every producer must write.
    LayoutRowAdded,
    /// A row with `since` or `optional = true`.
    LayoutRowAddedOptional,
    LayoutRowRemoved,
    LayoutRowOptionalChanged,
    /// What a row holds, how many, or the least bytes it needs.
    LayoutRowChanged,
    /// A blocks row's `owner`: the session whose row i owns block i.
    LayoutRowOwnerChanged,
    /// A constant that geometry fields hold, which readers follow from the header.
    GeometryFollowedChanged,
    /// A constant that geometry fields hold, which readers must find equal.
    GeometryEqualChanged,
    /// A `version` handshake on a struct the old schema has.
    HandshakeAdded,
    HandshakeRemoved,
    /// Its magic, major, minor, size or liveness fields.
    HandshakeChanged,
    FileAdded,
    FileRemoved,
    /// Its records, their places, counts, encodings or seeks, its totals or ordered fields.
    FileChanged,
    TemplateAdded,
    TemplateRemoved,
    TemplateOutputChanged,
    /// A protocol over a header the old schema has.
    ProtocolAdded,
    ProtocolRemoved,
    /// The fields, values or capacities it names.
    ProtocolChanged,
    /// Its writer and reader, client and server, or client and host.
    ProtocolPartiesChanged,
    /// A directory of running instances (`[[directory]]`): a mapping of its own.
    DirectoryAdded,
    DirectoryRemoved,
    /// Its mapping, the fields and state values it names, or who registers.
    DirectoryChanged,
    /// Only who lists it.
    DirectoryReaderChanged,
    /// An event (`[[event]]`): a new object and word, which old parties neither wait on
    /// nor set.
    EventAdded,
    EventRemoved,
    /// Its word, its setter, its waiter, its rows or its Windows name.
    EventChanged,
    /// A seqlock, ring, layout, handshake or protocol over structs the old schema does not
    /// have.
    DeclarationAdded,
    /// A seqlock, ring, layout, protocol or file format under a new name, all else the same.
    DeclarationRenamed,
    /// Parties, layouts or handshakes declared where the old schema declares none of them:
    /// a description of bytes and practices that were there before.
    FirstDescribed,
}

/// What kind of thing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Abi,
    Const,
    Enum,
    Flags,
    /// A value of an enum.
    Value,
    /// A bit of a flag set.
    Flag,
    Struct,
    Field,
    Party,
    Seqlock,
    Ring,
    Layout,
    /// A row of a layout table.
    Row,
    Handshake,
    File,
    Template,
    Protocol,
    Directory,
    Event,
}

impl ItemKind {
    pub fn label(self) -> &'static str {
        match self {
            ItemKind::Abi => "abi",
            ItemKind::Const => "constant",
            ItemKind::Enum => "enum",
            ItemKind::Flags => "flag set",
            ItemKind::Value => "enum value",
            ItemKind::Flag => "flag bit",
            ItemKind::Struct => "struct",
            ItemKind::Field => "field",
            ItemKind::Party => "party",
            ItemKind::Seqlock => "seqlock",
            ItemKind::Ring => "ring",
            ItemKind::Layout => "layout",
            ItemKind::Row => "layout row",
            ItemKind::Handshake => "handshake",
            ItemKind::File => "file",
            ItemKind::Template => "template",
            ItemKind::Protocol => "protocol",
            ItemKind::Directory => "directory",
            ItemKind::Event => "event",
        }
    }
}

/// One side of a change: what the item was, or is. Every number is the layout's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Shape {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub align: Option<u64>,
    /// A field's type as the schema writes it; an enum's representation.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// A constant's or an enum value's number as the schema writes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// How many values an enum or flag set has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<usize>,
    /// The doc text, in doc changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The `since` version, in since changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Whether the struct is extensible, in changes of that flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensible: Option<bool>,
}

impl Shape {
    /// One line: `0x2E40, 256 bytes, spawn_marker[max_spawn_markers]`, `16`, `enum u8, 4 values`.
    pub fn describe(&self) -> String {
        self.describe_with(&|s| s.to_string(), &|s| s.to_string())
    }

    /// [`Shape::describe`], with `code` applied to the schema text (types and values) and
    /// `text` to doc text, so that markdown can put the one in backticks and escape the other.
    pub fn describe_with(
        &self,
        code: &dyn Fn(&str) -> String,
        text: &dyn Fn(&str) -> String,
    ) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(o) = self.offset {
            parts.push(format!("0x{o:04x}"));
        }
        if let Some(s) = self.size {
            parts.push(format!("{s} byte{}", if s == 1 { "" } else { "s" }));
        }
        if let Some(a) = self.align {
            parts.push(format!("align {a}"));
        }
        if let Some(t) = &self.ty {
            parts.push(code(t));
        }
        if let Some(v) = &self.value {
            parts.push(code(v));
        }
        if let Some(n) = self.values {
            parts.push(format!("{n} value{}", if n == 1 { "" } else { "s" }));
        }
        if let Some(e) = self.extensible {
            parts.push(if e { "extensible" } else { "not extensible" }.to_string());
        }
        if let Some(s) = &self.since {
            parts.push(format!("since {s}"));
        }
        if let Some(d) = &self.doc {
            parts.push(text(&format!("{d:?}")));
        }
        parts.join(", ")
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub severity: Severity,
    pub kind: ChangeKind,
    pub item: ItemKind,
    /// The item path, such as `snapshot.match.round_state`: a struct member is named through
    /// the first chain of fields that reaches its struct from a top-level record.
    pub path: String,
    /// A few words: "field moved", "constant added".
    pub summary: String,
    /// Why it has its severity.
    pub reason: String,
    /// What to do about it: the rule's fix, or advice for this change in particular.
    pub advice: String,
    pub old: Option<Shape>,
    pub new: Option<Shape>,
    /// The fields that hold a struct (`snapshot.match`), have an enum as their type, or are
    /// sized by a constant; see [`Change::embedded_label`].
    pub embedded_in: Vec<String>,
    /// What the version policy says about this change in particular (a missing `since`).
    pub violation: Option<String>,
    pub old_span: Option<Span>,
    pub new_span: Option<Span>,
    /// The change this one follows from, by index into
    /// [`Diff::changes`](super::Diff::changes): a field that moved because a field before it
    /// was inserted, a struct that grew because it holds one that grew. `None` for a root
    /// cause.
    pub cause: Option<usize>,
    /// Where a field change is, for finding causes.
    pub(crate) site: Option<FieldSite>,
    /// A new item's `since`, and whether it must have one: checked against the version the
    /// verdict asks for.
    pub(crate) since_check: Option<(Option<Version>, bool)>,
}

impl FieldSite {
    pub(super) fn attach(mut change: Change, site: FieldSite) -> Change {
        change.site = Some(site);
        change
    }
}

/// A field change's struct, position and the items its type names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldSite {
    /// The struct, by its name in the schema the field is in.
    pub owner: String,
    /// The byte where the change happens: the new offset, or the old one for a removal.
    pub pos: u64,
    /// The struct or enum its elements are, by name.
    pub elem: Option<String>,
    /// The constant its array length is, by name.
    pub len: Option<String>,
}

impl Change {
    /// The old and new shapes described (see [`Shape::describe_with`]); when the name
    /// changed (a rename, a reused number), each side starts with its name.
    pub fn describe_sides(
        &self,
        code: &dyn Fn(&str) -> String,
        text: &dyn Fn(&str) -> String,
    ) -> (Option<String>, Option<String>) {
        let renamed = matches!((&self.old, &self.new), (Some(o), Some(n)) if o.name != n.name);
        let describe = |shape: &Shape| {
            let body = shape.describe_with(code, text);
            if renamed && body.is_empty() {
                code(&shape.name)
            } else if renamed {
                format!("{}, {body}", code(&shape.name))
            } else {
                body
            }
        };
        (
            self.old.as_ref().map(describe),
            self.new.as_ref().map(describe),
        )
    }

    /// The old and new numbers that differ, as one phrase: `0x0020 → 0x0028`,
    /// `128 → 136 bytes`; for an addition or a removal, its shape.
    pub fn transition(&self) -> String {
        let (Some(o), Some(n)) = (&self.old, &self.new) else {
            return self
                .new
                .as_ref()
                .or(self.old.as_ref())
                .map(Shape::describe)
                .unwrap_or_default();
        };
        let mut parts = Vec::new();
        if o.offset != n.offset
            && let (Some(a), Some(b)) = (o.offset, n.offset)
        {
            parts.push(format!("0x{a:04x} → 0x{b:04x}"));
        }
        if o.size != n.size
            && let (Some(a), Some(b)) = (o.size, n.size)
        {
            parts.push(format!("{a} → {b} bytes"));
        }
        if o.align != n.align
            && let (Some(a), Some(b)) = (o.align, n.align)
        {
            parts.push(format!("align {a} → {b}"));
        }
        if o.ty != n.ty
            && let (Some(a), Some(b)) = (&o.ty, &n.ty)
        {
            parts.push(format!("{a} → {b}"));
        }
        if o.value != n.value
            && let (Some(a), Some(b)) = (&o.value, &n.value)
        {
            parts.push(format!("{a} → {b}"));
        }
        parts.join(", ")
    }

    /// One line for a change listed as an effect: `client_entry.pad: field moved, 0x0020 → 0x0028`.
    pub fn effect_line(&self) -> String {
        let t = self.transition();
        if t.is_empty() {
            format!("{}: {}", self.path, self.summary)
        } else {
            format!("{}: {}, {t}", self.path, self.summary)
        }
    }

    /// How reports introduce [`Change::embedded_in`]: the fields a constant sizes, the
    /// fields an enum types, the fields that hold a struct.
    pub fn embedded_label(&self) -> &'static str {
        match self.item {
            ItemKind::Const => "sizes",
            ItemKind::Enum | ItemKind::Flags => "type of",
            _ => "held by",
        }
    }
}
