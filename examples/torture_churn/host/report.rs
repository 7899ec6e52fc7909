//! The churn's verdict: the counts per language, the double owners the clients' reports
//! prove, and the lines it prints.

use std::process::ExitCode;
use std::time::Duration;

use super::Host;

/// What one language's clients went through, and what the host found wrong.
#[derive(Default)]
pub(super) struct Counts {
    pub(super) sessions: u64,
    pub(super) killed: u64,
    pub(super) relayouts: u64,
    pub(super) frees: u64,
    pub(super) stuck: u64,
    pub(super) leaked: u64,
    pub(super) stale: u64,
    pub(super) double: u64,
    /// Stalled sessions, and the writes they let through after their stall (each is a stale
    /// write when its row was freed meanwhile, as it always is).
    pub(super) stalls: u64,
    pub(super) late_writes: u64,
}

impl Host<'_> {
    /// Reads every client's reports: the sessions, and any two of one row that stood
    /// Connected at once.
    pub(super) fn double_owners(&mut self) -> Result<(), String> {
        // (row, tag, first seen Connected (after), last seen Connected (before), lang)
        let mut spans: Vec<(usize, u64, u64, u64, &'static str)> = Vec::new();
        // (lang, writes a stalled session let through after its stall)
        let mut late: Vec<(&'static str, u64)> = Vec::new();
        for p in &mut self.procs {
            let text = p
                .output
                .take()
                .map(|t| t.join().unwrap_or_default())
                .unwrap_or_default();
            let mut span: Option<(u64, u64, u64)> = None;
            for line in text.lines() {
                let w: Vec<&str> = line.split_whitespace().collect();
                let num = |i: usize| -> Result<u64, String> {
                    w.get(i)
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| format!("the {} client: a bad line `{line}`", p.lang))
                };
                match w.first().copied() {
                    Some("connected") => span = Some((num(1)?, num(3)?, num(2)?)),
                    Some("still") => {
                        let t = num(1)?;
                        if let Some(s) = &mut span {
                            s.2 = s.2.max(t);
                        }
                    }
                    Some("stall") => {
                        let written = w[1..].iter().filter(|x| x.ends_with("=written")).count();
                        late.push((p.lang, written as u64));
                    }
                    Some("lost") => {}
                    _ => {
                        return Err(format!(
                            "the {} client: an unexpected line `{line}`",
                            p.lang
                        ));
                    }
                }
            }
            if let Some((t, first, last)) = span {
                if p.tag.is_some_and(|x| x != t) {
                    return Err(format!(
                        "the {} client reported {t:#x}, ready as {:?}",
                        p.lang, p.tag
                    ));
                }
                spans.push((p.row, t, first, last, p.lang));
            }
        }
        for (lang, written) in late {
            let c = self.counts(lang);
            c.stalls += 1;
            c.late_writes += written;
        }
        for (i, a) in spans.iter().enumerate() {
            let lang = a.4;
            self.counts(lang).sessions += 1;
            for b in &spans[i + 1..] {
                if a.0 == b.0 && a.1 != b.1 && a.2 < b.3 && b.2 < a.3 {
                    eprintln!(
                        "churn: row {}: sessions {:#x} and {:#x} Connected at once",
                        a.0, a.1, b.1
                    );
                    let later = if a.2 > b.2 { a.4 } else { b.4 };
                    self.counts(later).double += 1;
                }
            }
        }
        Ok(())
    }

    pub(super) fn report(&mut self, epochs: usize, elapsed: Duration) -> ExitCode {
        let mut failed = false;
        if let Err(e) = self.double_owners() {
            eprintln!("churn: {e}");
            failed = true;
        }
        println!(
            "protocol churn host: {epochs} epochs ({} re-layouts, {} reloads), {} processes, hung after {} ms, {:.1} s",
            self.relayouts,
            self.reloads,
            self.procs.len(),
            self.hung_ms,
            elapsed.as_secs_f64()
        );
        for f in &self.failures {
            eprintln!("churn: {f}");
            failed = true;
        }
        if !self.broken.is_empty() {
            println!("protocol churn host: broken on purpose: {}", self.broken);
        }
        for (lang, c) in &self.counts {
            println!(
                "protocol churn {lang}: {} sessions, {} killed, {} re-layouts, {} frees, {} stuck draws, {} leaked pads, {} stale writes accepted, {} double owners",
                c.sessions, c.killed, c.relayouts, c.frees, c.stuck, c.leaked, c.stale, c.double
            );
            println!(
                "protocol churn {lang} stalls: {} stalled sessions freed while asleep, {} late writes let through",
                c.stalls, c.late_writes
            );
            let churned = c.sessions > 0 && c.killed > 0 && c.relayouts > 0 && c.frees > 0;
            let zeros = c.stuck == 0 && c.leaked == 0 && c.stale == 0 && c.double == 0;
            failed |= !churned || !zeros;
        }
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}
