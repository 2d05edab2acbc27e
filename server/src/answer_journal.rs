//! The provider's answers to our sends, appended to a journal file the moment they arrive,
//! before the conversation records them in the store. A process that dies between the two
//! leaves the answer in its file; the next process to look (its own next start, or another node
//! sharing the data dir, at its next outbox poll) records it, so the outbox does not send that
//! message again (the Cloud API has no idempotency key).
//!
//! Each process writes its own file, `<data_dir>/send-answers/<uuid>.jsonl`, and holds an
//! exclusive lock on it while it lives: a file nobody holds belongs to a process that is gone.
//! Each answer is one `write` to it (`O_APPEND`): once that returns, the line survives the
//! process being killed. A background `fdatasync`, one for all the answers written while the
//! previous one ran, makes it survive a power loss too; nobody waits for it, since the answer
//! is durable as soon as either it or the store's commit is.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// The journals' folder in the data dir.
const DIR_NAME: &str = "send-answers";
/// A process's own file is emptied when it has grown past this and every answer in it is in
/// the store.
const TRUNCATE_AT: u64 = 1 << 20;

/// One accepted send: which outbox entry, and the provider's id for it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Answer {
    pub business_id: String,
    pub client_id: String,
    /// The conversation's customer key, to hand the answer to its actor.
    pub phone: String,
    pub provider_id: String,
}

/// The journal of a process that is gone, locked by us until `done`.
pub struct Orphan {
    path: PathBuf,
    /// Holds the lock.
    _file: File,
    pub answers: Vec<Answer>,
}

impl Orphan {
    /// Its answers are in the store: the file goes.
    pub fn done(self) {
        if let Err(err) = std::fs::remove_file(&self.path) {
            tracing::warn!(error = %err, path = %self.path.display(), "send answer journal not removed");
        }
    }
}

struct State {
    file: File,
    /// Bytes in the file.
    len: u64,
    /// Answers written but not yet recorded by the store; the file is only emptied at zero.
    unrecorded: usize,
    /// Lines written, and lines known to be on disk.
    written: u64,
    synced: u64,
    /// A sync task is running; it loops until `synced` catches up with `written`.
    syncing: bool,
}

pub struct AnswerJournal {
    dir: PathBuf,
    path: PathBuf,
    state: Arc<Mutex<State>>,
}

impl AnswerJournal {
    /// Starts this process's journal, locked for as long as the process lives.
    pub fn open(data_dir: &Path) -> std::io::Result<AnswerJournal> {
        let dir = data_dir.join(DIR_NAME);
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("{}.jsonl", uuid::Uuid::new_v4().simple()));
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        file.lock()?;
        let state = State {
            file,
            len: 0,
            unrecorded: 0,
            written: 0,
            synced: 0,
            syncing: false,
        };
        Ok(AnswerJournal {
            dir,
            path,
            state: Arc::new(Mutex::new(state)),
        })
    }

    /// The journals of processes that are gone (no lock held on them), with their answers. A
    /// torn last line, from a power loss mid-write, is skipped.
    pub fn orphans(&self) -> std::io::Result<Vec<Orphan>> {
        let mut orphans = Vec::new();
        for entry in std::fs::read_dir(&self.dir)? {
            let path = entry?.path();
            if path == self.path || path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let Ok(file) = OpenOptions::new().read(true).append(true).open(&path) else {
                continue; // removed by whoever took it first
            };
            if file.try_lock().is_err() {
                continue; // its process lives, or another one is taking it
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let answers = text
                .lines()
                .filter_map(|line| match serde_json::from_str(line) {
                    Ok(answer) => Some(answer),
                    Err(err) => {
                        tracing::warn!(error = %err, "unreadable line in a send answer journal");
                        None
                    }
                })
                .collect();
            orphans.push(Orphan {
                path,
                _file: file,
                answers,
            });
        }
        Ok(orphans)
    }

    /// Appends an answer (one `write`; the sync follows in the background). Until `recorded`
    /// is called for it, the file keeps it. A failed write is logged: the store's commit still
    /// follows, only the window before it is open.
    pub fn append(&self, answer: &Answer) {
        let mut line = serde_json::to_vec(answer).unwrap_or_default();
        line.push(b'\n');
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.unrecorded += 1;
        if let Err(err) = state.file.write_all(&line) {
            tracing::warn!(error = %err, path = %self.path.display(), "send answer not journaled");
            return;
        }
        state.len += line.len() as u64;
        state.written += 1;
        if !state.syncing {
            state.syncing = true;
            let shared = self.state.clone();
            tokio::task::spawn_blocking(move || sync_until_caught_up(&shared));
        }
    }

    /// The store has recorded an appended answer. Empties the file once it is large and holds
    /// nothing the store lacks (an answer whose recording failed stays for the next process).
    pub fn recorded(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.unrecorded = state.unrecorded.saturating_sub(1);
        if state.unrecorded == 0 && state.len >= TRUNCATE_AT {
            match state.file.set_len(0) {
                Ok(()) => state.len = 0,
                Err(err) => {
                    tracing::warn!(error = %err, path = %self.path.display(), "send answer journal not emptied")
                }
            }
        }
    }
}

/// Syncs until every written line is on disk; lines written during a sync share the next one.
fn sync_until_caught_up(state: &Mutex<State>) {
    loop {
        let (file, target) = {
            let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
            if state.synced == state.written {
                state.syncing = false;
                return;
            }
            match state.file.try_clone() {
                Ok(file) => (file, state.written),
                Err(err) => {
                    tracing::warn!(error = %err, "send answer journal not synced");
                    state.syncing = false;
                    return;
                }
            }
        };
        if let Err(err) = file.sync_data() {
            tracing::warn!(error = %err, "send answer journal not synced");
        }
        let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
        state.synced = target;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: u32) -> Answer {
        Answer {
            business_id: "b".into(),
            client_id: format!("c-{n}"),
            phone: "491701234567".into(),
            provider_id: format!("wamid.{n}"),
        }
    }

    #[tokio::test]
    async fn a_gone_process_journal_is_read_back_once_and_a_live_one_never() {
        let dir = tempfile::tempdir().expect("dir");
        let gone = AnswerJournal::open(dir.path()).expect("open");
        gone.append(&answer(1));
        gone.append(&answer(2));
        gone.recorded();
        let mut torn = OpenOptions::new()
            .append(true)
            .open(&gone.path)
            .expect("its file");
        torn.write_all(b"{\"business_id\":\"b\",\"cli")
            .expect("torn line");
        let live = AnswerJournal::open(dir.path()).expect("open");
        live.append(&answer(3));
        let gone_path = gone.path.clone();
        // The background sync holds the file too until it is done.
        while Arc::strong_count(&gone.state) > 1 {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        // The lock goes with the journal, as it goes with a killed process.
        drop(gone);

        let mut orphans = live.orphans().expect("orphans");
        assert_eq!(orphans.len(), 1);
        assert_eq!(orphans[0].answers, vec![answer(1), answer(2)]);
        assert!(
            live.orphans().expect("orphans").is_empty(),
            "locked while taken"
        );
        orphans.remove(0).done();
        assert!(!gone_path.exists());
        let other = AnswerJournal::open(dir.path()).expect("open");
        assert!(
            other.orphans().expect("orphans").is_empty(),
            "the live one's is kept"
        );
    }
}
