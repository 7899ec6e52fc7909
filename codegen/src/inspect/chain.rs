//! A record's `encoding` applied, record after record, inside one zlib stream: the decoded
//! data of each record (as is, or XORed with the decoded data before it), in one buffer the
//! size of one record's data, and the checks of the chain: a kind no list names, an XOR
//! record with no plain one before it in its stream or of another length than the one
//! before, decoded data shorter than its struct, whose expected values do not hold, or whose
//! `same` fields differ from the record's. A record that is decoded and selected goes to the
//! decoder's sink as a [`Decoded`](super::Decoded).

use crate::ir::file::{Encoding, Step};
use crate::ir::{Elem, Prim};
use crate::schema::Schema;

use super::file::{FileDecoder, read_scalar};
use super::model::{Decoded, show_like};
use crate::ir::StructId;

/// The chain of one stream: the decoded data of the last record, while the chain holds.
#[derive(Default)]
pub(super) struct Chain {
    prev: Option<Vec<u8>>,
}

/// One record of a stream as the chain sees it.
pub(super) struct Link<'b> {
    pub(super) ri: usize,
    pub(super) path: &'b str,
    pub(super) stream: &'b str,
    pub(super) pos: u64,
    pub(super) head: &'b [u8],
    pub(super) data: &'b [u8],
}

/// An integer field of a struct that expects a constant: its path, offset, width and the
/// constant's index, through nested structs.
fn expected_fields(schema: &Schema, si: StructId, base: u64, path: &str, out: &mut Vec<Expected>) {
    let s = &schema.abi.structs[si];
    let layout = schema.layout.of(si);
    for (f, fl) in s.fields.iter().zip(&layout.fields) {
        let fpath = super::model::join(path, &f.name);
        match (f.ty.elem, f.ty.len, f.expect) {
            (Elem::Prim(p), None, Some(c)) => out.push(Expected {
                path: fpath,
                offset: base + fl.offset,
                prim: p,
                konst: c,
            }),
            (Elem::Struct(j), None, _) => {
                expected_fields(schema, j, base + fl.offset, &fpath, out);
            }
            _ => {}
        }
    }
}

struct Expected {
    path: String,
    offset: u64,
    prim: Prim,
    konst: usize,
}

impl FileDecoder<'_> {
    /// Decodes one record's data through its encoding, if it has one, and hands it to the
    /// sink when it is selected.
    pub(super) fn decode_data(&mut self, chain: &mut Chain, link: &Link) {
        let f = self.f;
        if let Some(enc) = &f.records[link.ri].encoding {
            return self.chain_step(chain, enc, link);
        }
        if !self.selects(link.ri, link.head) {
            return;
        }
        let record = Decoded {
            path: link.path.to_string(),
            stream: link.stream.to_string(),
            offset: link.pos,
            struct_index: f.records[link.ri].struct_index,
            head: link.head.to_vec(),
            key: self.key_of(link.ri, link.head),
            kind: "data".to_string(),
            decoded_struct: None,
            data: link.data.to_vec(),
            extras_at: 0,
        };
        if let Some(sink) = self.sink.as_mut() {
            sink(record);
        }
    }

    /// Decodes one record's data through `enc`, checks it, and hands it to the sink when
    /// the record is selected.
    fn chain_step(&mut self, chain: &mut Chain, enc: &Encoding, link: &Link) {
        let rec = &self.f.records[link.ri];
        let en = &self.schema.abi.enums[enc.kind_enum];
        let kind = read_scalar(link.head, &enc.kind);
        let kind_name = en
            .values
            .iter()
            .find(|v| (v.value as u64) & width_mask(enc.kind.width) == kind)
            .map_or_else(|| kind.to_string(), |v| v.name.clone());
        let plain_name = self.kind_of(enc, Step::Plain);
        let data_path = match &self.f.records[link.ri].place {
            crate::ir::file::Place::Zlib(z) => z.data.as_ref().map_or("data", |d| d.path.as_str()),
            _ => "data",
        };
        let at = link.pos;
        let path = link.path;
        let decoded: Option<&Vec<u8>> = match enc.step(kind) {
            None => {
                let listed: Vec<String> = enc
                    .steps
                    .iter()
                    .map(|(v, s)| format!("{} = {}", self.value_name(enc, *v), s.name()))
                    .collect();
                let message = format!(
                    "{} = {kind_name}: not a kind the encoding lists ({}); its data is not decoded",
                    enc.kind.path,
                    listed.join(", ")
                );
                self.error(at, path, message);
                chain.prev = None;
                None
            }
            Some(Step::Plain) => {
                let buf = chain.prev.get_or_insert_with(Vec::new);
                buf.clear();
                buf.extend_from_slice(link.data);
                chain.prev.as_ref()
            }
            Some(Step::Xor) => match chain.prev.as_mut() {
                None => {
                    let message = format!(
                        "a {kind_name} with no {plain_name} before it in the stream of {}: its data is not decoded",
                        link.stream
                    );
                    self.error(at, path, message);
                    None
                }
                Some(prev) if prev.len() != link.data.len() => {
                    let message = format!(
                        "{data_path} = {}, but the record before it holds {}: a {kind_name} XORs data of the same length; its data is not decoded",
                        link.data.len(),
                        prev.len()
                    );
                    self.error(at, path, message);
                    chain.prev = None;
                    None
                }
                Some(prev) => {
                    for (p, d) in prev.iter_mut().zip(link.data) {
                        *p ^= d;
                    }
                    chain.prev.as_ref()
                }
            },
        };
        let Some(decoded) = decoded else { return };
        let decoded_name = &self.schema.abi.structs[enc.decoded].name;
        let whole = decoded.len() as u64 >= enc.decoded_size;
        let mut out = Vec::new();
        if !whole {
            out.push(format!(
                "{data_path} = {}: less than {decoded_name} ({} bytes), so it is not decoded",
                decoded.len(),
                enc.decoded_size
            ));
        } else {
            let mut expected = Vec::new();
            expected_fields(self.schema, enc.decoded, 0, "", &mut expected);
            for e in expected {
                let v = read_scalar(
                    decoded,
                    &crate::ir::scalar::Scalar {
                        path: String::new(),
                        offset: e.offset,
                        width: e.prim.size(),
                    },
                );
                let c = &self.schema.abi.consts[e.konst];
                if i128::from(v) != c.value {
                    out.push(format!(
                        "the decoded {decoded_name}'s {} holds {}, expected {} ({})",
                        e.path,
                        show_like(i128::from(v), &c.literal),
                        c.name,
                        c.literal
                    ));
                }
            }
            for s in &enc.same {
                let d = read_scalar(decoded, &s.decoded);
                let r = read_scalar(link.head, &s.record);
                if d != r {
                    out.push(format!(
                        "the decoded {decoded_name}'s {} = {d}, but {} = {r}",
                        s.decoded.path, s.record.path
                    ));
                }
            }
        }
        let selected = self.selects(link.ri, link.head);
        let record = selected.then(|| Decoded {
            path: path.to_string(),
            stream: link.stream.to_string(),
            offset: at,
            struct_index: rec.struct_index,
            head: link.head.to_vec(),
            key: self.key_of(link.ri, link.head),
            kind: kind_name.clone(),
            decoded_struct: whole.then_some(enc.decoded),
            data: decoded.clone(),
            extras_at: if whole {
                enc.decoded_size as usize
            } else {
                decoded.len()
            },
        });
        for m in out {
            self.error(at, path, m);
        }
        if let (Some(record), Some(sink)) = (record, self.sink.as_mut()) {
            sink(record);
        }
    }

    /// The name of the first kind the encoding lists with `step`.
    fn kind_of(&self, enc: &Encoding, step: Step) -> String {
        enc.steps.iter().find(|(_, s)| *s == step).map_or_else(
            || step.name().to_string(),
            |(v, _)| self.value_name(enc, *v),
        )
    }

    fn value_name(&self, enc: &Encoding, v: u64) -> String {
        self.schema.abi.enums[enc.kind_enum]
            .values
            .iter()
            .find(|x| (x.value as u64) & width_mask(enc.kind.width) == v)
            .map_or_else(|| v.to_string(), |x| x.name.clone())
    }
}

fn width_mask(width: u64) -> u64 {
    if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * width)) - 1
    }
}
