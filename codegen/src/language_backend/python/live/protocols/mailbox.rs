//! The Python class of a `[[mailbox]]`: its header's offsets and capacities, for
//! `python_mailbox.py.j2`.

use serde::Serialize;

use super::fields::Word;
use crate::ir::protocol::Mailbox;
use crate::language_backend::python::live::context::Ctx;

#[derive(Serialize)]
pub(in crate::language_backend::python) struct MailboxClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) response: String,
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) status_class: String,
    pub(in crate::language_backend::python) doc: Vec<String>,
    pub(in crate::language_backend::python) client: String,
    pub(in crate::language_backend::python) server: String,
    pub(in crate::language_backend::python) area: u64,
    pub(in crate::language_backend::python) request_seq: u64,
    pub(in crate::language_backend::python) request_len: u64,
    pub(in crate::language_backend::python) response_seq: u64,
    pub(in crate::language_backend::python) status: u64,
    pub(in crate::language_backend::python) response_len: u64,
    pub(in crate::language_backend::python) response_total: u64,
    pub(in crate::language_backend::python) request_capacity: Word,
    pub(in crate::language_backend::python) response_capacity: Word,
    /// Whether its client is bound to a session's claim (`plan::bound`).
    pub(in crate::language_backend::python) bound: bool,
}

impl Ctx<'_> {
    pub(super) fn mailbox(
        &self,
        name: &str,
        class: String,
        response: String,
        doc: Vec<String>,
        m: &Mailbox,
    ) -> MailboxClass {
        let h = m.header;
        let at = |f| self.offset(h, f);
        MailboxClass {
            name: name.to_string(),
            class,
            response,
            view: self.view_of(h),
            status_class: self.enum_of(h, m.status),
            doc,
            client: self.parties(&m.client),
            server: self.parties(&m.server),
            area: self.schema.layout.of(h).size,
            request_seq: at(m.request_seq),
            request_len: at(m.request_len),
            response_seq: at(m.response_seq),
            status: at(m.status),
            response_len: at(m.response_len),
            response_total: at(m.response_total),
            request_capacity: self.word(h, m.request_capacity),
            response_capacity: self.word(h, m.response_capacity),
            bound: false,
        }
    }
}
