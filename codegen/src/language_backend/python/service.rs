//! The Python module's host service turn (`templates/python_service.py.j2`): `HostService`,
//! printed from `plan::service` (the steps, their order, the policy, the free's steps), after
//! the directories' process probe, over the live protocol classes and the attach handle.

use std::sync::LazyLock;

use serde::Serialize;

use crate::ir::protocol::ProtocolKind;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::service::{DRAIN_MAX, FREE_STEPS, Reason, Region, Step, policy};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_service.py.j2",
    source: include_str!("../../../templates/python_service.py.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    session: String,
    session_class: String,
    closing: u64,
    active: u64,
    mailbox: Option<RegionCtx>,
    queue: Option<RegionCtx>,
    exchange: Option<RegionCtx>,
    dead: bool,
    steps: Vec<&'static str>,
    free_steps: Vec<&'static str>,
    serve_policy: Vec<&'static str>,
    take_policy: Vec<&'static str>,
    reasons: Vec<&'static str>,
    drain_max: u32,
}

#[derive(Serialize)]
struct RegionCtx {
    blocks: String,
    region: String,
    class: String,
}

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The section's text and its exports, or `None` without a service turn (`plan::service`)
/// or without the directories' process probe.
pub(super) fn render_service(
    schema: &Schema,
) -> Result<Option<(String, Vec<String>)>, RenderError> {
    let Some(plan) = crate::plan::service::service_plan(schema) else {
        return Ok(None);
    };
    let ProtocolKind::Session(s) = &schema.protocols[plan.session].kind else {
        return Ok(None);
    };
    if schema.attach.root.is_none() {
        return Ok(None);
    }
    let region = |r: &Option<Region>| {
        r.as_ref().map(|r| RegionCtx {
            blocks: r.blocks.clone(),
            region: r.region.clone(),
            class: camel(&schema.protocols[r.protocol].name),
        })
    };
    let probe = !schema.directories.is_empty();
    let text = COMPILED.render(Context {
        session: schema.protocols[plan.session].name.clone(),
        session_class: camel(&schema.protocols[plan.session].name),
        closing: s.closing,
        active: s.active,
        mailbox: region(&plan.mailbox),
        queue: region(&plan.queue),
        exchange: region(&plan.exchange),
        dead: plan.dead(probe),
        steps: plan.step_names(probe),
        free_steps: FREE_STEPS.iter().map(|f| f.name()).collect(),
        serve_policy: policy(Step::Serve),
        take_policy: policy(Step::Take),
        reasons: Reason::ALL.iter().map(|r| r.name()).collect(),
        drain_max: DRAIN_MAX,
    })?;
    Ok(Some((
        format!("\n\n{}\n", text.trim()),
        vec!["HostService".to_string()],
    )))
}

/// The stub of the section.
pub(super) fn stub(schema: &Schema) -> String {
    match crate::plan::service::service_plan(schema) {
        Some(_) if schema.attach.root.is_some() => STUB.to_string(),
        _ => String::new(),
    }
}

const STUB: &str = "
class HostService:
    KEEP: ClassVar[int]
    FREED_CLOSING: ClassVar[int]
    FREED_HUNG: ClassVar[int]
    FREED_DEAD: ClassVar[int]
    FREED_POLICY: ClassVar[int]
    DRAIN_MAX: ClassVar[int]
    host: Any
    watch: Any
    answer: Any
    log: Any
    draw: Any
    probe: Any
    readers: list[Any]
    counts: dict[str, int]
    last_error: Any
    def __init__(self, host: Any, hung_ms: int | None = None, answer: Any = None, log: Any = None, draw: Any = None, probe: Any = None) -> None: ...
    def serve_row(self, row: int) -> int: ...
    def drain_row(self, row: int) -> None: ...
    def take_row(self, row: int) -> int: ...
    def row_done(self, row: int, now_ns: int | None = None) -> int: ...
    def free_row(self, row: int, reason: int) -> None: ...
    def turn(self, now_ns: int | None = None) -> dict[str, int]: ...
    def reload(self) -> int: ...
";
