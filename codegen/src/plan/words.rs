//! Which fields the protocols' helpers access only as part of a wider word, decided once for
//! every target: a session row's state and generation when they share its 8-byte word
//! (`Session::shared_word`), and a directory row's state in its (state, pid) word. Such a
//! field gets no accessor of its own size in any language: it is read by a load of the
//! whole word (its lane taken out), and changed only by the protocol's helpers, which
//! compare-and-swap the word. So no program that uses the accessors and the helpers
//! accesses the same bytes with two sizes (within C, within Python; the Rust runtime
//! accesses every byte as part of its 8-byte word already).

use crate::ir::StructId;
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// The word a field is a lane of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lane {
    /// The word's offset from the start of the field's struct.
    pub word_at: u64,
    /// The word's bytes (8).
    pub word_width: u64,
    /// Where the field's bytes start in the word (little-endian: shift right by 8 × this).
    pub at: u64,
    /// The field's bytes.
    pub width: u64,
}

/// The word field `fi` of struct `si` is a lane of, if the protocols' helpers access its
/// bytes as a wider word.
pub fn lane(schema: &Schema, si: StructId, fi: usize) -> Option<Lane> {
    let fields = &schema.layout.of(si).fields;
    let of = |word_at: u64| Lane {
        word_at,
        word_width: 8,
        at: fields[fi].offset - word_at,
        width: fields[fi].size,
    };
    for p in &schema.protocols {
        if let ProtocolKind::Session(s) = &p.kind
            && let Some(w) = s.shared_word
            && s.row == si
            && (fi == s.state || fi == s.generation)
        {
            return Some(of(w.at));
        }
    }
    schema
        .directories
        .iter()
        .find(|d| d.row == si && (fi == d.state || fi == d.pid))
        .map(|d| of(d.plan.word_at))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::plan::bridge_for_tests as bridge;

    fn field(schema: &Schema, s: &str, f: &str) -> (StructId, usize) {
        let si = (schema.abi.structs.iter().position(|x| x.name == s)).expect("the struct");
        let si = StructId::new(si);
        let fields = &schema.abi.structs[si].fields;
        let fi = fields.iter().position(|x| x.name == f).expect("the field");
        (si, fi)
    }

    #[test]
    fn the_bridge_has_three_lanes_and_pad_owner_is_none() {
        let schema = bridge();
        let at = |s, f| {
            let (si, fi) = field(&schema, s, f);
            lane(&schema, si, fi).map(|l| (l.word_at, l.word_width, l.at, l.width))
        };
        assert_eq!(at("client_entry", "state"), Some((0, 8, 0, 4)));
        assert_eq!(at("client_entry", "generation"), Some((0, 8, 4, 4)));
        assert_eq!(at("directory_entry", "state"), Some((0, 8, 0, 4)));
        assert_eq!(at("directory_entry", "pid"), Some((0, 8, 4, 4)));
        assert_eq!(at("client_entry", "heartbeat_ns"), None);
        assert_eq!(
            at("bridge_header", "pad_owner"),
            None,
            "a word of its own width"
        );
    }
}
