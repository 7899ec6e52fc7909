//! The stub's protocol section: the error, the read results and a class per declared
//! protocol with both sides' signatures, typed from the context `live/protocols.rs` rendered
//! the module's section from (every name as the module has it).

use std::fmt::Write as _;

use crate::language_backend::python::live::ProtocolsContext;

/// What every protocol section has; `{error}`, `{empty_class}`, `{empty}`, `{lapped}` and
/// `{standing}` and `{watch}` are the names the module gave them.
const SHARED: &str = r#"
class {error}(ValueError):
    check: str
    def __init__(self, check: str, message: str) -> None: ...

class {empty_class}: ...

{empty}: {empty_class}

class {lapped}:
    missed: int
    def __init__(self, missed: int) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class {standing}(enum.IntEnum):
    CONNECTED = 0
    DISCONNECTED = 1
    RELOADED = 2
    HOST_EXITING = 3

class {watch}:
    def __init__(self, rows: int, hung_ns: int) -> None: ...
    def is_hung(self, index: int, row: tuple[int, int, int] | None, now_ns: int) -> bool: ...
"#;

/// Writes the section's stub into `out`.
pub(super) fn write_protocols(out: &mut String, p: &ProtocolsContext) {
    out.push_str(
        &SHARED
            .replace("{error}", &p.error)
            .replace("{empty_class}", &p.empty_class)
            .replace("{empty}", &p.empty)
            .replace("{lapped}", &p.lapped)
            .replace("{standing}", &p.standing)
            .replace("{watch}", &p.watch),
    );
    for q in &p.queues {
        let _ = writeln!(out, "\nclass {}:\n    head: {}", q.entry, q.head);
        let mut params = String::new();
        let mut takes = String::new();
        for part in &q.parts {
            let _ = writeln!(out, "    {}: bytes", part.attr);
            let _ = write!(params, ", {}: bytes", part.attr);
            let _ = write!(takes, ", {}: bytes | str", part.attr);
        }
        let _ = writeln!(
            out,
            "    def __init__(self, head: {}{params}) -> None: ...",
            q.head
        );
        let _ = writeln!(
            out,
            "\nclass {c}:\n    def __init__(self, view: {v}{session}) -> None: ...\n    @property\n    \
             def view(self) -> {v}: ...\n    @property\n    def capacity(self) -> int: ...",
            c = q.class,
            v = q.view,
            session = if q.seq.is_none() {
                ", session: object | None = None"
            } else {
                ""
            },
        );
        if q.seq.is_none() {
            let _ = writeln!(
                out,
                "    @classmethod\n    def unscoped(cls, view: {v}) -> {c}: ...",
                c = q.class,
                v = q.view
            );
        }
        match q.seq {
            None => {
                let _ = writeln!(
                    out,
                    "    def dropped(self) -> int: ...\n    \
                     def push(self, head: {}{takes}) -> bool: ...\n    \
                     def pop(self) -> {} | None: ...",
                    q.head, q.entry
                );
            }
            Some(_) => {
                let _ = writeln!(
                    out,
                    "    @property\n    def laps(self) -> int: ...\n    \
                     def join_latest(self) -> None: ...\n    def join_oldest(self) -> None: ...\n    \
                     def push(self, head: {}{takes}) -> int: ...\n    \
                     def read_next(self) -> {} | {} | {}: ...",
                    q.head, q.entry, p.empty_class, p.lapped
                );
            }
        }
    }
    for m in &p.mailboxes {
        let _ = writeln!(
            out,
            "\nclass {r}:\n    status: {s}\n    text: bytes\n    cut: bool\n    total: int\n    seq: int\n    \
             def __init__(self, status: {s}, text: bytes, cut: bool, total: int, seq: int) -> None: ...\n\
             \nclass {c}:\n    waits: int\n    def __init__(self, view: {v}, session: object | None = None) -> None: ...\n    \
             @classmethod\n    def unscoped(cls, view: {v}) -> {c}: ...\n    \
             @property\n    def view(self) -> {v}: ...\n    \
             @property\n    def request_capacity(self) -> int: ...\n    \
             @property\n    def response_capacity(self) -> int: ...\n    \
             def request(self, text: bytes | str) -> int: ...\n    \
             def poll_response(self, seq: int | None = None) -> {r} | None: ...\n    \
             def wait_response(self, timeout: float, seq: int | None = None) -> {r} | None: ...\n    \
             @overload\n    \
             def serve(self, answer: Callable[[bytes], tuple[int, bytes | str]], malformed: Literal[False] = False) -> int | None: ...\n    \
             @overload\n    \
             def serve(self, answer: Callable[[bytes | None], tuple[int, bytes | str]], malformed: Literal[True]) -> int | None: ...",
            r = m.response,
            s = m.status_class,
            c = m.class,
            v = m.view
        );
    }
    for e in &p.exchanges {
        let _ = writeln!(
            out,
            "\nclass {t}:\n    head: {l}\n    items: list[{i}]\n    payload: bytes\n    \
             def __init__(self, head: {l}, items: list[{i}], payload: bytes) -> None: ...\n\
             \nclass {c}:\n    INITIAL_STATE: ClassVar[int]\n    STALE_GRACE: ClassVar[int]\n    \
             def __init__(self, view: {v}, session: object | None = None) -> None: ...\n    \
             @classmethod\n    def unscoped(cls, view: {v}) -> {c}: ...\n    \
             @property\n    def view(self) -> {v}: ...\n    \
             @property\n    def max_items(self) -> int: ...\n    \
             @property\n    def max_payload(self) -> int: ...\n    \
             @property\n    def count(self) -> int: ...\n    \
             @property\n    def payload_len(self) -> int: ...\n    \
             @property\n    def dropped(self) -> int: ...\n    \
             @property\n    def absorbed(self) -> int: ...\n    \
             def reset(self) -> None: ...\n    def reset_state(self) -> None: ...\n    \
             def begin(self, head: {l} | None = None) -> None: ...\n    \
             def add(self, item: {i}, payload: bytes = b\"\") -> bool: ...\n    \
             def publish(self) -> bool: ...\n    def take(self) -> {t} | None: ...",
            t = e.taken,
            l = e.list,
            i = e.item,
            c = e.class,
            v = e.view
        );
    }
    if p.sessions.iter().any(|s| !s.events.is_empty()) {
        out.push_str(
            "\nclass WakeStats:\n    SAMPLES: ClassVar[int]\n    ticks: int\n    skipped: int\n    \
             def __init__(self) -> None: ...\n    \
             def record(self, last: int, seq: int, publish_ns: int, wake_ns: int | None = None) -> None: ...\n    \
             def percentiles_us(self) -> tuple[float, float]: ...\n",
        );
    }
    for w in &p.wake_stores {
        let _ = writeln!(
            out,
            "\ndef {f}(view: {v}, stats: WakeStats) -> None: ...",
            f = w.function,
            v = w.view
        );
    }
    for s in &p.sessions {
        let _ = writeln!(
            out,
            "\nclass {c}:\n    ROWS: ClassVar[int]\n    HEARTBEAT_MS: ClassVar[int]\n    HUNG_MS: ClassVar[int]\n    \
             def __init__(self, header: {v}, index: int) -> None: ...\n    \
             @classmethod\n    def claim(cls, header: {v}, index: int, attached: int) -> {c} | None: ...\n    \
             @property\n    def row(self) -> {r}: ...\n    \
             @property\n    def index(self) -> int: ...\n    \
             @property\n    def generation(self) -> int: ...\n    \
             @property\n    def host_generation(self) -> int: ...\n    \
             def activate(self) -> bool: ...\n    \
             def heartbeat(self, now_ns: int | None = None) -> {standing}: ...\n    \
             def set_waiting(self, waiting: bool) -> {standing}: ...\n    \
             def standing(self) -> {standing}: ...\n    \
             def scoped(self, writer: _T) -> _T: ...\n    \
             def close(self) -> bool: ...\n    \
             {binding}@classmethod\n    def row_state(cls, header: {v}, index: int) -> tuple[{st}, int]: ...\n    \
             @classmethod\n    def free(cls, host: {h}, index: int) -> int: ...\n    \
             @classmethod\n    def reload(cls, host: {h}) -> int: ...\n    \
             @classmethod\n    def exit(cls, host: {h}) -> None: ...\n    \
             @classmethod\n    def host_waiting(cls, header: {v}, index: int) -> bool: ...\n    \
             @classmethod\n    def watch(cls, hung_ms: int | None = None) -> {w}: ...\n    \
             @classmethod\n    def hung(cls, header: {v}, index: int, watch: {w}, now_ns: int | None = None) -> bool: ...{events}",
            c = s.class,
            v = s.view,
            // Only a session that binds pads (the plan's `bind`) has the pad methods.
            binding = if s.bind.is_some() {
                format!(
                    "def bind_pad(self, pad: int) -> bool: ...\n    \
                     def unbind_pad(self, pad: int) -> bool: ...\n    \
                     @classmethod\n    def pad_owner(cls, header: {}, pad: int) -> int | None: ...\n    ",
                    s.view
                )
            } else {
                String::new()
            },
            // A session whose rows own blocks is freed through the attached handle.
            h = if s.owned.is_empty() {
                s.view.as_str()
            } else {
                "_AttachHandle"
            },
            events = s
                .events
                .iter()
                .map(|(e, ..)| format!(
                    "\n    def wait_{e}(self, last: int, timeout: float) -> tuple[int | None, int, bool]: ...\n    \
                     @classmethod\n    def host_set_{e}(cls, header: {}, always: Iterable[int] = ()) -> int: ...",
                    s.view
                ))
                .collect::<String>()
                + &s.lockstep.as_ref().map_or_else(String::new, |l| format!(
                    "\n    def answer_{e}(self, pad: {pv}, value: {pvalue}) -> None: ...\n    \
                     @classmethod\n    def host_lockstep_bots(cls, header: {v}) -> int: ...\n    \
                     @classmethod\n    def host_wait_{e}(cls, header: {v}, pads: list[{pv} | None], tick: int, timeout: float, last: list[{pvalue} | None], misses: list[int]) -> tuple[int, int, int]: ...",
                    e = l.ev,
                    pv = l.view,
                    pvalue = l.value,
                    v = s.view
                ))
                + &s.commands.as_ref().map_or_else(String::new, |c| format!(
                    "\n    def request_{e}(self, box: {m}, text: str | bytes) -> int: ...\n    \
                     @classmethod\n    def host_wait_{e}(cls, boxes: list[{mv} | None], rows: int, timeout: float) -> int: ...",
                    e = c.ev,
                    m = c.mailbox,
                    mv = c.view,
                )),
            r = s.row_view,
            st = s.state_class,
            standing = p.standing,
            w = p.watch
        );
    }
}
