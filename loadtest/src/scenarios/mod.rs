//! The seven scenarios, one module each, and the pieces more than one of them uses.
//!
//! - `idle`, `inbox`, `cluster`, `fanout`, `send`, `bulk`, `big_inbox`: the scenarios.
//! - `corpus`: the big inbox's names and message texts and the webhooks that carry them.
//! - `run`: what every scenario is given (target, flags, run id, progress bar).
//! - `open_loop`: the publisher that keeps its schedule whatever the server does.
//! - `publish`: one marked message as a webhook to Parley or a body to nchan.
//! - `subscribers`: the sessions that read marked messages and credit their phase.

mod big_inbox;
mod bulk;
mod cluster;
mod corpus;
mod fanout;
mod idle;
mod inbox;
mod open_loop;
mod publish;
mod run;
mod send;
mod subscribers;

pub use big_inbox::{BigInbox, big_inbox};
pub use bulk::bulk;
pub use cluster::cluster;
pub use fanout::fanout;
pub use idle::idle;
pub use inbox::inbox;
pub use run::Run;
pub use send::send;
