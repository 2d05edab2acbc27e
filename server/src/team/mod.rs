//! Team workflow: who answers a conversation and where it stands.
//!
//! - `mod`: status changes, assignment and the claim lock, the check before an agent sends,
//!   reopening and round-robin assignment after a customer's message, a removed agent's
//!   conversations freed
//! - `notes`: private notes and the `@username` mentions in them
//! - `labels`: the business's labels and the labels a conversation carries
//! - `settings`: the business's assignment mode and claim timeout, checked
//! - `sweep`: wakes snoozed conversations at their time and frees claims whose customer waited
//!   too long, on one node each
//!
//! Every change is stored with its activity entry and events in one transaction, then published.

mod labels;
mod notes;
mod settings;
mod sweep;

use std::collections::HashMap;
use std::sync::Arc;

use actix::Addr;
use parley_actors::conversation::ConversationKey;
use parley_actors::hub::{EventBus, Hub, OnlineUsers};

pub use labels::MAX_LABEL_NAME;
pub use notes::Note;
pub use settings::SettingsChange;
pub use sweep::spawn_team_sweep;

use crate::store::{self, Assigned, Committed, ContactRow, Person, Standing, Store};

/// The statuses a conversation can have.
pub const STATUSES: [&str; 4] = ["open", "pending", "resolved", "snoozed"];

/// Why a team action was refused.
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    /// A field breaks a rule (names the field).
    #[error("{0}")]
    Invalid(String),
    /// The caller's role may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// Someone else holds the conversation.
    #[error("This conversation is assigned to {}", .0.name)]
    AssignedToOther(Person),
    #[error(transparent)]
    Store(#[from] store::Error),
}

/// Who acts: a member of one business.
pub struct Member {
    pub business_id: String,
    pub user_id: String,
    pub is_owner: bool,
}

impl Member {
    fn conversation(&self, phone: &str) -> ConversationKey {
        ConversationKey {
            business_id: self.business_id.clone(),
            phone: phone.to_string(),
        }
    }
}

/// The team rules, over the store; changes are published on the bus.
#[derive(Clone)]
pub struct Team {
    store: Store,
    bus: Arc<dyn EventBus>,
    /// Knows which users have a session on this node.
    hub: Addr<Hub>,
}

/// A conversation a customer wrote to, and when their message was stored (Unix ms).
type Wrote = (ConversationKey, i64);

/// Each conversation of the `queued` batches once, where it first came, with its latest
/// message's time.
fn each_once(queued: &mut Vec<Committed>) -> Vec<Wrote> {
    let mut place: HashMap<ConversationKey, usize> = HashMap::new();
    let mut once: Vec<Wrote> = Vec::new();
    let keys = queued
        .drain(..)
        .flat_map(|(keys, at)| keys.into_iter().map(move |k| (k, at)));
    for (key, at) in keys {
        match place.get(&key) {
            Some(&i) => once[i].1 = once[i].1.max(at),
            None => {
                place.insert(key.clone(), once.len());
                once.push((key, at));
            }
        }
    }
    once
}

/// Most committed batches one follow-up reads together (a batch holds up to 512 writes).
const FOLLOW_UP_BATCHES: usize = 8;

impl Team {
    /// The team rules, and the task that follows up the conversations customers write to: the
    /// store hands it each committed batch's conversations with new customer messages, and it
    /// takes every batch queued while its previous read ran, so at thousands of webhooks a
    /// second they cost a read per batch, not two queries each (the task runs on the runtime
    /// this is called on).
    pub fn new(store: Store, bus: Arc<dyn EventBus>, hub: Addr<Hub>) -> Team {
        let team = Team { store, bus, hub };
        if let Some(mut queued) = team.store.take_new_inbound() {
            let follower = team.clone();
            actix_web::rt::spawn(async move {
                let mut queue = Vec::new();
                while queued.recv_many(&mut queue, FOLLOW_UP_BATCHES).await > 0 {
                    let wrote = each_once(&mut queue);
                    if let Err(err) = follower.customers_wrote(&wrote).await {
                        tracing::warn!(error = %err, "conversations not reopened or assigned");
                    }
                }
            });
        }
        team
    }

    /// After customers' new messages (their batches' conversations, each once, in order): each
    /// conversation is followed up by `customer_wrote` only when one read of them all (with the
    /// business's assignment mode) says it would change, so a batch of a thousand
    /// conversations costs a query per business, not several per conversation.
    async fn customers_wrote(&self, wrote: &[Wrote]) -> Result<(), TeamError> {
        let mut businesses: Vec<&str> = wrote.iter().map(|(k, _)| k.business_id.as_str()).collect();
        businesses.sort_unstable();
        businesses.dedup();
        for business_id in businesses {
            let theirs = || wrote.iter().filter(|(k, _)| k.business_id == business_id);
            let phones: Vec<&str> = theirs().map(|(k, _)| k.phone.as_str()).collect();
            let awaiting: HashMap<String, Standing> = self
                .store
                .awaiting_team(business_id, &phones)
                .await?
                .into_iter()
                .map(|standing| (standing.phone.clone(), standing))
                .collect();
            for (key, stored_at) in theirs() {
                if let Some(standing) = awaiting.get(&key.phone) {
                    self.customer_wrote(key, *stored_at, standing).await?;
                }
            }
        }
        Ok(())
    }

    /// After a customer's new message, stored at `stored_at`: a conversation resolved or
    /// snoozed before it opens again, and with round-robin assignment an open conversation
    /// nobody holds goes to the least busy agent with a session on this node; `standing` is how
    /// the conversation stood when read.
    async fn customer_wrote(
        &self,
        key: &ConversationKey,
        stored_at: i64,
        standing: &Standing,
    ) -> Result<(), TeamError> {
        if matches!(standing.status.as_str(), "resolved" | "snoozed") {
            let events = self.store.reopen(key, stored_at).await?;
            if events.is_empty() {
                return Ok(());
            }
            self.bus.publish(events);
        } else if standing.status != "open" {
            return Ok(());
        }
        if standing.assigned || !standing.assigning {
            return Ok(());
        }
        let online = self
            .hub
            .send(OnlineUsers(key.business_id.clone()))
            .await
            .unwrap_or_default();
        let events = self.store.assign_round_robin(key, &online).await?;
        self.bus.publish(events);
        Ok(())
    }

    /// A member as entries and events name them.
    async fn person(&self, business_id: &str, user_id: &str) -> Result<Person, TeamError> {
        let user = self.store.user(business_id, user_id).await?;
        Ok(Person {
            name: user.full_name(),
            id: user.id,
        })
    }

    /// Sets the status; `snoozed_until` (Unix ms, in the future) goes with `snoozed` only.
    pub async fn set_status(
        &self,
        member: &Member,
        phone: &str,
        status: &str,
        snoozed_until: Option<i64>,
    ) -> Result<ContactRow, TeamError> {
        if !STATUSES.contains(&status) {
            return Err(TeamError::Invalid(
                "status must be open, pending, resolved or snoozed".into(),
            ));
        }
        match (status, snoozed_until) {
            ("snoozed", None) => {
                return Err(TeamError::Invalid(
                    "snoozed_until is required to snooze".into(),
                ));
            }
            ("snoozed", Some(at)) if at <= store::now_ms() => {
                return Err(TeamError::Invalid(
                    "snoozed_until must be in the future".into(),
                ));
            }
            ("snoozed", _) | (_, None) => {}
            (_, Some(_)) => {
                return Err(TeamError::Invalid(
                    "snoozed_until goes only with the status snoozed".into(),
                ));
            }
        }
        let by = self.person(&member.business_id, &member.user_id).await?;
        let key = member.conversation(phone);
        let (row, events) = self
            .store
            .set_status(&key, status, snoozed_until, &by)
            .await?;
        self.bus.publish(events);
        Ok(row)
    }

    /// Assigns to `assignee_id` or nobody. The owner may assign anyone of the business; an agent
    /// only themself or nobody. A `claim` takes the conversation only when it is free or already
    /// the caller's.
    pub async fn assign(
        &self,
        member: &Member,
        phone: &str,
        assignee_id: Option<&str>,
        claim: bool,
    ) -> Result<ContactRow, TeamError> {
        if !member.is_owner && assignee_id.is_some_and(|id| id != member.user_id) {
            return Err(TeamError::Forbidden(
                "An agent can assign a conversation only to themself or nobody".into(),
            ));
        }
        let by = self.person(&member.business_id, &member.user_id).await?;
        let key = member.conversation(phone);
        match self.store.assign(&key, assignee_id, claim, &by).await? {
            Assigned::Done(row, events) => {
                self.bus.publish(events);
                Ok(*row)
            }
            Assigned::TakenBy(holder) => Err(TeamError::AssignedToOther(holder)),
            Assigned::NotMember => Err(TeamError::Invalid(
                "assignee_id is not a member of this business".into(),
            )),
        }
    }

    /// An agent was removed: the conversations they held go back to unassigned.
    pub async fn agent_removed(&self, business_id: &str, user_id: &str) -> Result<(), TeamError> {
        let events = self.store.release_assignee(business_id, user_id).await?;
        self.bus.publish(events);
        Ok(())
    }

    /// Before a send to one customer: an agent may not answer a conversation someone else holds
    /// unless `take_over`, which reassigns it to them. The owner may always send.
    pub async fn check_send(
        &self,
        member: &Member,
        phone: &str,
        take_over: bool,
    ) -> Result<(), TeamError> {
        if member.is_owner {
            return Ok(());
        }
        let row = match self.store.contact_row(&member.business_id, phone).await {
            Err(store::Error::NotFound(_)) => return Ok(()),
            other => other?,
        };
        match row.assignee_id {
            Some(holder) if holder != member.user_id => {
                if !take_over {
                    return Err(TeamError::AssignedToOther(Person {
                        id: holder,
                        name: row.assignee_name.unwrap_or_default(),
                    }));
                }
                self.assign(member, phone, Some(&member.user_id), false)
                    .await
                    .map(|_| ())
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(phone: &str) -> ConversationKey {
        ConversationKey {
            business_id: "b".into(),
            phone: phone.into(),
        }
    }

    #[test]
    fn each_conversation_is_followed_up_once_with_its_latest_message() {
        // Three committed batches: a conversation in several keeps its first place and the
        // latest commit's time.
        let mut queued = vec![
            (vec![key("1"), key("2")], 11),
            (vec![key("1")], 12),
            (vec![key("1")], 9),
        ];
        assert_eq!(each_once(&mut queued), vec![(key("1"), 12), (key("2"), 11)]);
        assert!(queued.is_empty());
    }
}
