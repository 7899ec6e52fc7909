//! The host's service turn (issue 48), decided once for every target: which regions of a
//! session's owned blocks the host serves, drains and takes each tick, in what order, which
//! results free a row (the broken-client policy), and how a row is freed. Every backend prints
//! this plan; none orders the steps itself.
//!
//! Per row, in this order:
//! 1. **serve** the row's mailbox: a waiting request goes to the host's answer callback; a
//!    request whose length is past its area (malformed) too, with no text, and the
//!    callback's status answers it; a broken sequence or capacity frees the row (policy);
//! 2. **drain** the row's queue into the host's callback, at most [`DRAIN_MAX`] entries a
//!    turn (a client refilling as fast as the host drains never holds it);
//! 3. **take** the row's exchange (the draw lists) through the host's callback; a broken
//!    writer's state frees the row (policy);
//! 4. **closing, hung, dead**: a row whose client said goodbye, one unchanged for the hung
//!    time, or an active one whose process is gone (or whose pid names a process created at
//!    another time than the one first probed for this claim) is freed.
//!
//! A free is always [`FREE_STEPS`]: drain (the client's last entries), free (through the
//! host's handle: pads let go, mailbox answered, exchange reset), drain again (entries pushed
//! while the free ran), then a new reader of the row's exchange, made by the turn itself at
//! once: a reader kept past a free sees the next claim's first publication as a stale one and
//! refuses its writer from then on (issue 48, item 4).

use crate::ir::attach::Holds;
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// Queue entries drained from one row in one call.
pub const DRAIN_MAX: u32 = 1024;

/// A region of the session's owned blocks the turn works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// The blocks row's name in its layout (`client_blocks`) and the region's row name in
    /// the block's layout (`mailbox`).
    pub blocks: String,
    pub region: String,
    /// The protocol over it, by index into the schema's protocols.
    pub protocol: crate::ir::ProtocolId,
}

/// Why a row is freed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its client said goodbye.
    Closing,
    /// Unchanged for the hung time.
    Hung,
    /// Its process is gone.
    Dead,
    /// A broken-client result of the policy.
    Policy,
}

impl Reason {
    pub const ALL: [Reason; 4] = [Reason::Closing, Reason::Hung, Reason::Dead, Reason::Policy];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Closing => "closing",
            Reason::Hung => "hung",
            Reason::Dead => "dead",
            Reason::Policy => "policy",
        }
    }
}

/// One step of a row's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Serve,
    Drain,
    Take,
    /// Free when the row is in this state (closing) or found so (hung, dead).
    FreeIf(Reason),
}

/// One step of a free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeStep {
    Drain,
    Free,
    NewReader,
}

/// A free's steps, in order.
pub const FREE_STEPS: [FreeStep; 4] = [
    FreeStep::Drain,
    FreeStep::Free,
    FreeStep::Drain,
    FreeStep::NewReader,
];

/// The protocol results that free a row (`result_codes` names), by step.
pub const POLICY: [(Step, &[&str]); 2] = [
    (Step::Serve, &["mailbox_sequence", "mailbox_capacity"]),
    (Step::Take, &["exchange_state"]),
];

impl FreeStep {
    pub fn name(self) -> &'static str {
        match self {
            FreeStep::Drain => "drain",
            FreeStep::Free => "free",
            FreeStep::NewReader => "new_reader",
        }
    }
}

/// The names of the results of `step` that free a row.
pub fn policy(step: Step) -> Vec<&'static str> {
    (POLICY.iter())
        .filter(|(s, _)| *s == step)
        .flat_map(|(_, names)| names.iter().copied())
        .collect()
}

/// The service turn of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServicePlan {
    /// The session, by index into the schema's protocols.
    pub session: crate::ir::ProtocolId,
    pub mailbox: Option<Region>,
    pub queue: Option<Region>,
    pub exchange: Option<Region>,
    /// The row's process id: its plain 4-byte field `pid`, when it has one.
    pub pid: Option<usize>,
    /// A row's steps, in order.
    pub steps: Vec<Step>,
}

/// The turn of the first session whose rows own blocks, with the first mailbox, queue and
/// exchange among their regions; `None` when no session owns blocks.
pub fn service_plan(schema: &Schema) -> Option<ServicePlan> {
    let session = (0..schema.protocols.len())
        .map(crate::ir::ProtocolId::new)
        .find(|&i| crate::plan::session::owns_blocks(schema, i))?;
    let ProtocolKind::Session(s) = &schema.protocols[session].kind else {
        return None;
    };
    let (mut mailbox, mut queue, mut exchange) = (None, None, None);
    for o in crate::plan::session::owned_blocks(schema, session) {
        let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
        for r in &schema.attach.layouts[o.block_layout].rows {
            let Holds::Struct { struct_index, .. } = r.holds else {
                continue;
            };
            for (protocol, p) in crate::ir::ProtocolId::enumerate(&schema.protocols) {
                if p.kind.header() != struct_index {
                    continue;
                }
                let region = Region {
                    blocks: blocks.clone(),
                    region: r.name.clone(),
                    protocol,
                };
                let slot = match p.kind {
                    ProtocolKind::Mailbox(_) => &mut mailbox,
                    ProtocolKind::Queue(_) => &mut queue,
                    ProtocolKind::Exchange(_) => &mut exchange,
                    _ => continue,
                };
                slot.get_or_insert(region);
            }
        }
    }
    let row = &schema.abi.structs[s.row];
    let pid = crate::plan::row_loads::row_loads(schema, s.row)
        .iter()
        .find(|f| {
            row.fields[f.field].name == "pid"
                && f.load == crate::plan::row_loads::RowLoad::Scalar { width: 4 }
        })
        .map(|f| f.field);
    let mut steps = Vec::new();
    if mailbox.is_some() {
        steps.push(Step::Serve);
    }
    if queue.is_some() {
        steps.push(Step::Drain);
    }
    if exchange.is_some() {
        steps.push(Step::Take);
    }
    steps.extend([Step::FreeIf(Reason::Closing), Step::FreeIf(Reason::Hung)]);
    if pid.is_some() {
        steps.push(Step::FreeIf(Reason::Dead));
    }
    Some(ServicePlan {
        session,
        mailbox,
        queue,
        exchange,
        pid,
        steps,
    })
}

impl ServicePlan {
    /// A row's steps by name, in order (`serve`, `drain`, `take`, then each reason's): the
    /// dead step only when `probe` (the target has a process probe to go with the `pid`).
    pub fn step_names(&self, probe: bool) -> Vec<&'static str> {
        (self.steps.iter())
            .filter_map(|s| match s {
                Step::Serve => Some("serve"),
                Step::Drain => Some("drain"),
                Step::Take => Some("take"),
                Step::FreeIf(Reason::Dead) if !self.dead(probe) => None,
                Step::FreeIf(r) => Some(r.name()),
            })
            .collect()
    }

    /// Whether active rows are probed by pid: a `pid` field and a probe.
    pub fn dead(&self, probe: bool) -> bool {
        self.pid.is_some() && probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridges_turn_serves_drains_takes_then_frees() {
        let schema = crate::plan::bridge_for_tests();
        let plan = service_plan(&schema).expect("the bridge has a service turn");
        assert_eq!(schema.protocols[plan.session].name, "client");
        let names = |r: &Option<Region>| {
            let r = r.as_ref().expect("a region");
            (r.blocks.clone(), r.region.clone())
        };
        assert_eq!(
            names(&plan.mailbox),
            ("client_blocks".into(), "mailbox".into())
        );
        assert_eq!(
            names(&plan.queue),
            ("client_blocks".into(), "log_queue".into())
        );
        assert_eq!(names(&plan.exchange), ("bot_blocks".into(), "draw".into()));
        assert!(plan.pid.is_some());
        assert_eq!(
            plan.steps,
            [
                Step::Serve,
                Step::Drain,
                Step::Take,
                Step::FreeIf(Reason::Closing),
                Step::FreeIf(Reason::Hung),
                Step::FreeIf(Reason::Dead),
            ]
        );
    }

    #[test]
    fn a_schema_without_owned_blocks_has_no_turn() {
        let src = include_str!("../../../tests/fixtures/protocols/demo.toml");
        let schema = crate::schema::load_schema(src).expect("demo");
        assert_eq!(service_plan(&schema), None);
    }
}
