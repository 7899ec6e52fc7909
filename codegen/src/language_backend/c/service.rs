//! The C header's host service turn (`templates/c_service.h.j2`): `<prefix>_host_service_turn`
//! and its steps, printed from `plan::service` (the steps, their order, the policy, the free's
//! steps); after the attach helpers (the host's handle) and the directories (the process
//! probe) it calls.

use std::sync::LazyLock;

use serde::Serialize;

use super::names::c_type_name;
use crate::ir::protocol::ProtocolKind;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::service::{DRAIN_MAX, FREE_STEPS, Reason, Region, Step, policy};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_service.h.j2",
    source: include_str!("../../../templates/c_service.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    p: String,
    pu: String,
    session: String,
    rows: u64,
    row_s: String,
    closing: u64,
    active: u64,
    mailbox: Option<RegionCtx>,
    queue: Option<RegionCtx>,
    exchange: Option<RegionCtx>,
    /// The list header's type of the exchange.
    list_s: String,
    /// Whether active rows are probed by pid (a `pid` field and the platform's probe).
    dead: bool,
    /// A row's steps, in order: serve, drain, take, closing, hung, dead.
    steps: Vec<&'static str>,
    /// A free's steps, in order: drain, free, new_reader.
    free_steps: Vec<&'static str>,
    /// The results that free a row, as macros, of the serve and the take.
    serve_policy: Vec<String>,
    take_policy: Vec<String>,
    reasons: Vec<ReasonCtx>,
    drain_max: u32,
}

#[derive(Serialize)]
struct RegionCtx {
    /// The protocol's name (its helpers' prefix) and the host handle's accessor.
    name: String,
    accessor: String,
}

#[derive(Serialize)]
struct ReasonCtx {
    name: &'static str,
    upper: String,
    value: usize,
}

/// The service turn's helpers, or `None` when the schema has no turn (`plan::service`) or no
/// process probe to go with a `pid`.
pub(super) fn render_c_service(
    schema: &Schema,
    has_probe: bool,
) -> Result<Option<String>, RenderError> {
    let Some(plan) = crate::plan::service::service_plan(schema) else {
        return Ok(None);
    };
    let ProtocolKind::Session(s) = &schema.protocols[plan.session].kind else {
        return Ok(None);
    };
    let p = schema.abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let region = |r: &Option<Region>| {
        r.as_ref().map(|r| RegionCtx {
            name: schema.protocols[r.protocol].name.clone(),
            accessor: format!("{}_{}", r.blocks, r.region),
        })
    };
    let list_s = match plan
        .exchange
        .as_ref()
        .map(|r| &schema.protocols[r.protocol].kind)
    {
        Some(ProtocolKind::Exchange(x)) => c_type_name(&schema.abi.structs[x.list].name, &p),
        _ => String::new(),
    };
    let dead = plan.dead(has_probe);
    let upper = |step: Step| -> Vec<String> {
        (policy(step).iter())
            .map(|n| format!("{pu}_{}", n.to_ascii_uppercase()))
            .collect()
    };
    let context = Context {
        session: schema.protocols[plan.session].name.clone(),
        rows: s.table.of(&schema.abi).ty.count(),
        row_s: c_type_name(&schema.abi.structs[s.row].name, &p),
        closing: s.closing,
        active: s.active,
        mailbox: region(&plan.mailbox),
        queue: region(&plan.queue),
        exchange: region(&plan.exchange),
        list_s,
        dead,
        steps: plan.step_names(has_probe),
        free_steps: FREE_STEPS.iter().map(|f| f.name()).collect(),
        serve_policy: upper(Step::Serve),
        take_policy: upper(Step::Take),
        reasons: (Reason::ALL.iter().enumerate())
            .map(|(i, r)| ReasonCtx {
                name: r.name(),
                upper: r.name().to_ascii_uppercase(),
                value: i + 1,
            })
            .collect(),
        drain_max: DRAIN_MAX,
        p,
        pu,
    };
    COMPILED.render(context).map(Some)
}
