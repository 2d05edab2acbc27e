//! What every scenario shares: the target, the flags, a run id, the progress bar.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::Common;
use crate::client::Api;
use crate::report::Report;

/// What every scenario shares: the target, the flags, a run id, the progress bar.
pub struct Run {
    pub api: Api,
    pub common: Common,
    /// Makes usernames, channels and message ids unique per run.
    pub run_id: String,
    pub bar: ProgressBar,
}

impl Run {
    pub fn new(api: Api, common: Common) -> Self {
        let bar = if common.quiet {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            // unwrap: constant template.
            #[allow(clippy::unwrap_used)]
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} [{bar:30}] {pos}/{len} {msg}")
                    .unwrap()
                    .progress_chars("=> "),
            );
            bar
        };
        let run_id = uuid::Uuid::new_v4().simple().to_string()[..12].to_string();
        Self {
            api,
            common,
            run_id,
            bar,
        }
    }

    pub(super) fn report(&self, scenario: &str) -> Report {
        Report {
            scenario: scenario.into(),
            peer: format!("{:?}", self.common.peer).to_lowercase(),
            target: self.common.target.clone(),
            sessions: self.common.sessions,
            customers: self.common.customers,
            agents: self.common.agents,
            offered_rate: self.common.rate,
            duration_secs: self.common.duration,
            ..Report::default()
        }
    }

    pub(super) fn stage(&self, msg: &str, len: u64) {
        self.bar.set_length(len);
        self.bar.set_position(0);
        self.bar.set_message(msg.to_string());
    }
}
