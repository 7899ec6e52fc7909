//! The host's frees (hung, reload, re-layout) and what it checks each one left; a host
//! broken on purpose (TORTURE_CHURN_BREAK) puts back what its free changed.

use std::sync::atomic::Ordering::{Acquire, Release};

use bridge_abi::CommandStatus;
use bridge_abi::MAX_CLIENTS;
use bridge_abi::live::{Bridge, DrawWriter, MailboxClient};
use bridge_abi::runtime::hung::HungWatch;

use super::{GEOMETRY, Host, readers, text_tag};

/// What a free changes, saved before it, for a host broken on purpose to put back.
struct Saved {
    draw_state: u32,
    pads: [u8; 4],
    response_seq: u32,
}

impl Host<'_> {
    fn save(&self, row: usize) -> Saved {
        let bot = self.bridge.bot_blocks(row).ok().flatten();
        let block = self.bridge.client_blocks(row).ok().flatten();
        Saved {
            draw_state: bot.and_then(|b| b.draw()).map_or(0, |d| d.state()),
            pads: self.bridge.header().pad_owner(),
            response_seq: block.and_then(|b| b.mailbox_region()).map_or(0, |r| {
                r.load::<u32>(MailboxClient::SPEC.response_seq, Acquire)
            }),
        }
    }

    /// A host broken on purpose (TORTURE_CHURN_BREAK) puts back what its free changed.
    fn unbreak(&self, row: usize, saved: &Saved) -> Result<(), String> {
        let bot = self.bridge.bot_blocks(row).ok().flatten();
        let block = self.bridge.client_blocks(row).ok().flatten();
        let e = |e: bridge_abi::runtime::Contended| e.to_string();
        match self.broken.as_str() {
            "draw-reset" => {
                if let Some(r) = bot.and_then(|b| b.draw_region()) {
                    r.try_store::<u32>(DrawWriter::SPEC.state, saved.draw_state, Release)
                        .map_err(e)?;
                }
            }
            "pad-release" => {
                let header = self.bridge.header();
                let now = header.pad_owner();
                let _ = header
                    .compare_exchange_pad_owner(now, saved.pads)
                    .map_err(e)?;
            }
            "mailbox-restore" => {
                if let Some(r) = block.and_then(|b| b.mailbox_region()) {
                    r.try_store::<u32>(
                        MailboxClient::SPEC.response_seq,
                        saved.response_seq,
                        Release,
                    )
                    .map_err(e)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Frees `row` (hung): drains it, frees it, and checks what it left.
    pub(super) fn free(&mut self, row: usize) -> Result<(), String> {
        self.pump_row(row)?;
        let saved = self.save(row);
        self.sessions
            .free(row)
            .map_err(|e| format!("row {row}: free: {e}"))?;
        self.unbreak(row, &saved)?;
        self.watch.forget(row);
        self.after_free(row)
    }

    pub(super) fn reload(&mut self) -> Result<(), String> {
        self.pump();
        let saved: Vec<Saved> = (0..MAX_CLIENTS).map(|r| self.save(r)).collect();
        let freed = self.sessions.reload().map_err(|e| format!("reload: {e}"))?;
        self.reloads += 1;
        for row in freed {
            self.unbreak(row, &saved[row])?;
            self.watch.forget(row);
            self.after_free(row)?;
        }
        Ok(())
    }

    /// The image laid out again over the live mapping, asking for generation 1: produce
    /// takes it past the mapping's.
    pub(super) fn relayout(&mut self) -> Result<(), String> {
        self.pump();
        let in_use: Vec<usize> = (0..MAX_CLIENTS)
            .filter(|&r| self.current_tag(r).is_some())
            .collect();
        let image = Bridge::lay_out(&GEOMETRY, 1).map_err(|e| e.to_string())?;
        self.bridge = Bridge::produce(self.region, &image).map_err(|e| e.to_string())?;
        self.sessions = self.bridge.client_host();
        self.readers = readers(&self.bridge)?;
        self.watch = HungWatch::new(MAX_CLIENTS, self.hung_ms * 1_000_000);
        self.relayouts += 1;
        let mut langs: Vec<&'static str> = Vec::new();
        for row in in_use {
            self.after_free(row)?;
            if let Some(p) = self.current[row]
                && !langs.contains(&self.procs[p].lang)
            {
                langs.push(self.procs[p].lang);
            }
        }
        for lang in langs {
            self.counts(lang).relayouts += 1;
        }
        Ok(())
    }

    /// What a free of `row` must leave, checked before any new client can claim it: the
    /// draw exchange at its initial state and a new reader finding no list, no pad naming
    /// the row, no request waiting, no log entry; the freed session counted.
    pub(super) fn after_free(&mut self, row: usize) -> Result<(), String> {
        let lang = self.current[row].map_or("unknown", |p| self.procs[p].lang);
        if let Some(p) = self.current[row] {
            self.procs[p].freed = true;
        }
        self.counts(lang).frees += 1;
        self.stuck[row] = false;
        let bot = self
            .bridge
            .bot_blocks(row)
            .map_err(|e| e.to_string())?
            .ok_or("no bot block")?;
        let state = bot.draw().map_or(0, |d| d.state());
        if state != DrawWriter::SPEC.initial_state {
            eprintln!("churn: row {row}: the draw exchange is at {state:#x} after a free");
            self.counts(lang).stuck += 1;
        }
        let leaked = self
            .bridge
            .header()
            .pad_owner()
            .iter()
            .filter(|&&o| usize::from(o) == row)
            .count();
        if leaked > 0 {
            eprintln!("churn: row {row}: {leaked} pads still name the row after its free");
            self.counts(lang).leaked += leaked as u64;
        }
        self.readers[row].draw = bot
            .draw_reader()
            .map_err(|e| e.to_string())?
            .ok_or("no draw lists")?;
        let mut request = None;
        let served = self.readers[row].mailbox.serve(|text| {
            request = Some(text_tag(text));
            (CommandStatus::REFUSED, Vec::new())
        });
        if let Ok(Some(_)) = served {
            self.observed(row, request.unwrap_or(0));
        }
        self.pump_row(row)
    }
}
