//! The layout engine: every struct's size, alignment and field offsets by the C rules for
//! naturally aligned structs, computed once. It never inserts padding: a gap is an error
//! that names the padding field to declare. Backends print these numbers.

use crate::diagnostics::{Errors, SchemaErrors};
use crate::ir::access::FieldRef;
use crate::ir::{Abi, Elem, Field, PerStruct, Prim, Struct, StructId};

/// The largest struct the generator accepts: sizes must fit a `u32` (and a 32-bit `usize`).
pub const MAX_SIZE: u64 = u32::MAX as u64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Indexed like `Abi::structs`.
    pub structs: PerStruct<StructLayout>,
    /// Struct indices in dependency order: each struct after the structs it embeds, and
    /// otherwise in schema order. Targets that must declare a type before using it (C,
    /// Python) emit structs in this order.
    pub order: Vec<StructId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructLayout {
    pub size: u64,
    pub align: u64,
    /// Indexed like `Struct::fields`.
    pub fields: Vec<FieldLayout>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLayout {
    pub offset: u64,
    /// The whole field, every array element included.
    pub size: u64,
    pub align: u64,
    /// One array element (the whole field when it is not an array).
    pub elem_size: u64,
}

impl Layout {
    pub fn of(&self, id: StructId) -> &StructLayout {
        &self.structs[id]
    }

    /// The layout of the field `r` names.
    pub fn field(&self, r: FieldRef) -> &FieldLayout {
        &self.structs[r.struct_index].fields[r.field]
    }
}

/// The largest alignment that every target the bindings are built for gives a scalar (an
/// integer, float or enum) inside a struct by itself. The ABI aligns each scalar to its
/// size, up to 8; 32-bit x86 (gcc `-m32`, its CPython, Rust's `i686-*` targets) gives the
/// 8-byte ones (`u64`, `i64`, `f64`) only 4 inside a struct. Every other target the bindings
/// are meant for aligns scalars of up to 4 bytes to their size; a target that did not
/// would fail the bindings' layout checks at compile or import time, not silently.
///
/// An alignment above this one is therefore stated in the bindings instead of being left to
/// the target: see [`StructLayout::stated_align`] and [`FieldLayout::stated_align`]. Since
/// the layout has no implicit padding, every field's offset is the sum of the sizes before
/// it, a multiple of its ABI alignment and so of any smaller one a target may give it: the
/// alignment of a struct (and of its scalar fields, in C) is all a target can get wrong.
pub const TARGET_SCALAR_ALIGN: u64 = 4;

impl StructLayout {
    /// The struct's alignment when a target may give it less by itself (it is above
    /// [`TARGET_SCALAR_ALIGN`]): Rust states it with `#[repr(C, align(N))]` and Python with
    /// ctypes' `_align_`.
    pub fn stated_align(&self) -> Option<u64> {
        (self.align > TARGET_SCALAR_ALIGN).then_some(self.align)
    }
}

impl FieldLayout {
    /// The field's alignment when a target may give it less by itself: C states it on a
    /// scalar member (`_Alignas(8) uint64_t`), which gives the struct, and every struct or
    /// array that holds it, the ABI's alignment. (C leaves it off a member of struct type:
    /// that struct's own members state theirs.)
    pub fn stated_align(&self) -> Option<u64> {
        (self.align > TARGET_SCALAR_ALIGN).then_some(self.align)
    }
}

/// Computes the layout of every struct, in dependency order, and checks it.
pub fn compute_layout(abi: &Abi) -> Result<Layout, SchemaErrors> {
    let mut errors = Errors::new();
    let order = dependency_order(abi, &mut errors);
    errors.propagate()?;
    let mut done: Vec<Option<StructLayout>> = vec![None; abi.structs.len()];
    for &i in &order {
        let layout = compute_struct(abi, &abi.structs[i], &done, &mut errors);
        done[i.index()] = Some(layout);
    }
    errors.propagate()?;
    Ok(Layout {
        structs: done
            .into_iter()
            .map(|l| l.expect("every struct is laid out"))
            .collect(),
        order,
    })
}

/// Structs ordered so that each comes after the structs it contains. A struct that
/// contains itself, directly or through others, is an error.
fn dependency_order(abi: &Abi, errors: &mut Errors) -> Vec<StructId> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let n = abi.structs.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::with_capacity(n);
    // Reversed, so that popping visits the dependencies in field order.
    let deps = |i: StructId| -> Vec<StructId> {
        abi.structs[i]
            .fields
            .iter()
            .rev()
            .filter_map(|f| match f.ty.elem {
                Elem::Struct(j) => Some(j),
                _ => None,
            })
            .collect()
    };
    // Iterative depth-first search, so that deep nesting cannot overflow the stack.
    for root in abi.struct_ids() {
        if mark[root.index()] != Mark::New {
            continue;
        }
        let mut stack: Vec<(StructId, Vec<StructId>)> = vec![(root, deps(root))];
        mark[root.index()] = Mark::Active;
        while let Some((node, pending)) = stack.last_mut() {
            let node = *node;
            match pending.pop() {
                Some(next) => match mark[next.index()] {
                    Mark::New => {
                        mark[next.index()] = Mark::Active;
                        let d = deps(next);
                        stack.push((next, d));
                    }
                    Mark::Active => {
                        let start = stack.iter().position(|(s, _)| *s == next).unwrap_or(0);
                        let mut path: Vec<&str> = stack[start..]
                            .iter()
                            .map(|(s, _)| abi.structs[*s].name.as_str())
                            .collect();
                        path.push(&abi.structs[next].name);
                        let s = &abi.structs[next];
                        let field = abi.structs[node]
                            .fields
                            .iter()
                            .find(|f| f.ty.elem == Elem::Struct(next));
                        let span = field.map_or(s.span.clone(), |f| f.type_span.clone());
                        errors.error_help(
                            &span,
                            format!("struct `{}` contains itself: {}", s.name, path.join(" -> ")),
                            "a struct cannot hold itself by value; the chain of fields must end",
                        );
                    }
                    Mark::Done => {}
                },
                None => {
                    mark[node.index()] = Mark::Done;
                    order.push(node);
                    stack.pop();
                }
            }
        }
    }
    order
}

fn padding_hint(offset: u64, bytes: u64) -> String {
    if bytes == 1 {
        format!("_pad{offset}: u8")
    } else {
        format!("_pad{offset}: u8[{bytes}]")
    }
}

/// Declared padding of bytes: a `_name` field of `u8` or `u8[N]`.
fn is_byte_pad(f: &Field) -> bool {
    f.is_padding() && f.ty.elem == Elem::Prim(Prim::U8)
}

/// How to resize a declared pad at `start` of `len` bytes whose end (`end`) is not a
/// multiple of `align`: shrink it to end at the multiple below (or remove it), else grow it
/// to the one above.
fn resize_pad_help(name: &str, (start, len): (u64, u64), end: u64, align: u64) -> String {
    let down = end - end % align;
    let up = down + align;
    let grown = up - start;
    if down > start {
        format!(
            "make \"{name}\" u8[{}] to end at {down:#x} ({down}), or u8[{grown}] to end at {up:#x}",
            down - start
        )
    } else if down == start && len > 0 {
        format!(
            "remove \"{name}\": the field before it ends at {down:#x} ({down}), aligned; or make it u8[{grown}]"
        )
    } else {
        format!("make \"{name}\" u8[{grown}] to end at {up:#x} ({up})")
    }
}

/// A last pad named for an offset past where it now starts (`_pad24` at 0x15: bytes before
/// it were deleted, `_pad21` say) and that would end the struct aligned there: declaring the
/// missing bytes before it puts it back where its name says, and keeps every offset.
fn moved_pad_help(name: &str, (start, len): (u64, u64), align: u64) -> Option<String> {
    let named: u64 = name.strip_prefix("_pad")?.parse().ok()?;
    if named <= start || (named + len) % align != 0 {
        return None;
    }
    Some(format!(
        "declare \"{}\" before \"{name}\": it puts \"{name}\" back at {named:#x} ({named}), as its name says, and keeps every offset",
        padding_hint(start, named - start)
    ))
}

/// A gap before field `f` at `offset`: the field before it is a declared pad of the wrong
/// size (resize it), an enum narrower than the bytes it left (its repr may be the mistake:
/// the error points at it), or anything else (declare a pad).
fn gap_error(
    abi: &Abi,
    s: &Struct,
    (f, elem_align): (&Field, u64),
    offset: u64,
    gap: u64,
    prev: Option<(&Field, &FieldLayout)>,
    errors: &mut Errors,
) {
    let declare = format!(
        "declare \"{}\" before \"{}\"",
        padding_hint(offset, gap),
        f.name
    );
    let message = format!(
        "struct `{}`: {gap}-byte gap before field `{}` at offset {offset:#x} ({offset}): \
         `{}` needs {elem_align}-byte alignment and would start at {:#x}",
        s.name,
        f.name,
        f.ty.text,
        offset + gap
    );
    match prev {
        Some((p, l)) if is_byte_pad(p) => {
            let help = resize_pad_help(&p.name, (l.offset, l.size), offset, elem_align);
            errors.error_help(&f.span, message, help);
        }
        Some((p, l)) if matches!(p.ty.elem, Elem::Enum(_)) && p.ty.len.is_none() => {
            let Elem::Enum(e) = p.ty.elem else {
                return;
            };
            let e = &abi.enums[e];
            let wide = l.size + gap;
            let repr = match wide {
                2 => "u16",
                4 => "u32",
                8 => "u64",
                _ => "",
            };
            let widen = if repr.is_empty() {
                String::new()
            } else {
                format!(
                    "if `{}` is meant to be {wide} bytes, its enum's repr is the mistake: write repr = \"{repr}\" on `{}`; else ",
                    p.name, e.name
                )
            };
            errors.error_help(
                &p.type_span,
                format!(
                    "struct `{}`: field `{}` is {} (enum `{}` has repr {}), which leaves a {gap}-byte gap before field `{}` at offset {offset:#x} ({offset})",
                    s.name,
                    p.name,
                    if l.size == 1 { "1 byte".to_string() } else { format!("{} bytes", l.size) },
                    e.name,
                    e.repr.name(),
                    f.name
                ),
                format!("{widen}{declare}"),
            );
        }
        _ => errors.error_help(&f.span, message, declare),
    }
}

fn compute_struct(
    abi: &Abi,
    s: &Struct,
    done: &[Option<StructLayout>],
    errors: &mut Errors,
) -> StructLayout {
    let mut offset: u64 = 0;
    let mut align: u64 = 1;
    let mut fields = Vec::with_capacity(s.fields.len());
    let mut overflowed = false;
    for f in &s.fields {
        let (elem_size, elem_align) = match f.ty.elem {
            Elem::Prim(p) => (p.size(), p.size()),
            Elem::Char => (1, 1),
            Elem::Enum(i) => (abi.enums[i].repr.size(), abi.enums[i].repr.size()),
            Elem::Struct(i) => {
                let l = done[i.index()]
                    .as_ref()
                    .expect("dependencies are laid out first");
                (l.size, l.align)
            }
        };
        let size = elem_size
            .checked_mul(f.ty.count())
            .filter(|s| *s <= MAX_SIZE);
        let Some(size) = size else {
            errors.error_help(
                &f.type_span,
                format!(
                    "field `{}.{}`: {} elements of {elem_size} bytes make {} bytes, over the size limit of {MAX_SIZE} bytes (4 GiB - 1)",
                    s.name,
                    f.name,
                    f.ty.count(),
                    u128::from(elem_size) * u128::from(f.ty.count()),
                ),
                "a struct and each of its fields must fit a u32; use fewer elements",
            );
            overflowed = true;
            fields.push(FieldLayout {
                offset,
                size: 0,
                align: elem_align,
                elem_size,
            });
            continue;
        };
        let misalign = offset % elem_align;
        if misalign != 0 && !overflowed {
            let gap = elem_align - misalign;
            let prev = fields
                .len()
                .checked_sub(1)
                .map(|i| (&s.fields[i], &fields[i]));
            gap_error(abi, s, (f, elem_align), offset, gap, prev, errors);
            offset += gap;
        }
        align = align.max(elem_align);
        fields.push(FieldLayout {
            offset,
            size,
            align: elem_align,
            elem_size,
        });
        match offset.checked_add(size).filter(|e| *e <= MAX_SIZE) {
            Some(end) => offset = end,
            None if !overflowed => {
                errors.error_help(
                    &f.span,
                    format!(
                        "struct `{}`: field `{}` ends past the size limit of {MAX_SIZE} bytes (4 GiB - 1)",
                        s.name, f.name
                    ),
                    "a struct and each of its fields must fit a u32; use fewer or smaller fields",
                );
                overflowed = true;
            }
            None => {}
        }
    }
    let size = offset;
    let tail = (align - size % align) % align;
    if tail != 0 && !overflowed {
        let last = s.fields.last().map_or("", |f| f.name.as_str());
        // Point at the last field: the padding goes right after it.
        let span = s.fields.last().map_or(&s.span, |f| &f.span);
        // A declared pad at the end that overshoots: shrink it to end aligned (or grow it).
        let pad = s
            .fields
            .last()
            .zip(fields.last())
            .filter(|(f, _)| is_byte_pad(f));
        let help = match pad {
            Some((f, l)) => {
                let resize = resize_pad_help(&f.name, (l.offset, l.size), size, align);
                match moved_pad_help(&f.name, (l.offset, l.size), align) {
                    Some(restore) => format!("{restore}; or {resize}"),
                    None => resize,
                }
            }
            None => format!(
                "declare \"{}\" after \"{last}\", as the last field",
                padding_hint(size, tail)
            ),
        };
        errors.error_help(
            span,
            format!(
                "struct `{}`: {tail} bytes of undeclared tail padding: its fields end at {size:#x} ({size}) \
                 but its alignment is {align}",
                s.name
            ),
            help,
        );
    }
    let size = size + tail;
    if let Some((declared, span)) = &s.declared_size
        && *declared != size
        && !overflowed
    {
        errors.error_help(
                span,
                format!(
                    "struct `{}` states size {declared} but its fields make {size} bytes",
                    s.name
                ),
                format!(
                    "write size = {size}, or change the fields (`abi-codegen layout {}` shows where the bytes go)",
                    s.name
                ),
            );
    }
    if let Some((declared, span)) = &s.declared_align
        && *declared != align
    {
        errors.error_help(
                span,
                format!(
                    "struct `{}` states align {declared} but its fields make it {align}",
                    s.name
                ),
                format!(
                    "a struct is aligned like its most-aligned field: write align = {align}, or change the fields"
                ),
            );
    }
    StructLayout {
        size,
        align,
        fields,
    }
}
