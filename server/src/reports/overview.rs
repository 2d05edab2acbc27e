//! The overview's numbers. Counts of messages come from SQL aggregation; opened and resolved
//! conversations and the response times come from walking each active conversation's history,
//! since whether a message opens a conversation depends on what came before it.

use std::collections::HashMap;

use serde::Serialize;

use super::range::Range;
use crate::store::{Step, Store, StoreResult, TimelineRow};

/// The numbers of one bucket, or of the whole range.
#[derive(Serialize, Default, Debug, PartialEq, utoipa::ToSchema)]
pub struct Numbers {
    pub conversations_opened: i64,
    pub conversations_resolved: i64,
    pub messages_in: i64,
    pub messages_out: i64,
    pub first_response_median_secs: Option<i64>,
    pub first_response_p90_secs: Option<i64>,
    pub resolution_median_secs: Option<i64>,
    pub resolution_p90_secs: Option<i64>,
}

/// One bucket of the range.
#[derive(Serialize, utoipa::ToSchema)]
pub struct BucketRow {
    /// The bucket's start in the report's time zone (RFC 3339).
    pub start: String,
    #[serde(flatten)]
    pub numbers: Numbers,
}

/// One team member's share.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AgentRow {
    pub user_id: String,
    pub name: String,
    pub conversations_handled: i64,
    pub first_response_median_secs: Option<i64>,
}

/// The overview report.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Report {
    pub from: String,
    pub to: String,
    pub bucket: &'static str,
    pub tz: String,
    pub buckets: Vec<BucketRow>,
    pub agents: Vec<AgentRow>,
    pub totals: Numbers,
}

/// What a bucket gathers before its medians are taken (durations in ms).
#[derive(Default)]
struct Tally {
    opened: i64,
    resolved: i64,
    messages_in: i64,
    messages_out: i64,
    first_responses: Vec<i64>,
    resolutions: Vec<i64>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.opened += other.opened;
        self.resolved += other.resolved;
        self.messages_in += other.messages_in;
        self.messages_out += other.messages_out;
        self.first_responses.extend(&other.first_responses);
        self.resolutions.extend(&other.resolutions);
    }

    fn numbers(mut self) -> Numbers {
        self.first_responses.sort_unstable();
        self.resolutions.sort_unstable();
        Numbers {
            conversations_opened: self.opened,
            conversations_resolved: self.resolved,
            messages_in: self.messages_in,
            messages_out: self.messages_out,
            first_response_median_secs: median_secs(&self.first_responses),
            first_response_p90_secs: p90_secs(&self.first_responses),
            resolution_median_secs: median_secs(&self.resolutions),
            resolution_p90_secs: p90_secs(&self.resolutions),
        }
    }
}

/// The business's report over `range`.
pub async fn overview(store: &Store, business_id: &str, range: &Range) -> StoreResult<Report> {
    let (from, to) = (range.start(), range.end);
    let mut tallies: Vec<Tally> = range.starts.iter().map(|_| Tally::default()).collect();
    for slot in store.message_slots(business_id, from, to).await? {
        // A slot starts on a bucket boundary or inside a bucket; one before `from` is the first.
        let index = range.bucket_of(slot.start.max(from)).unwrap_or_default();
        let tally = &mut tallies[index];
        if slot.incoming {
            tally.messages_in += slot.count;
        } else {
            tally.messages_out += slot.count;
        }
    }
    let timeline = store.report_timeline(business_id, from, to).await?;
    let responders = walk(&timeline, range, &mut tallies);
    let handled: HashMap<String, i64> = store
        .handled_counts(business_id, from, to)
        .await?
        .into_iter()
        .collect();
    let mut agents: Vec<AgentRow> = store
        .members(business_id)
        .await?
        .into_iter()
        .map(|(user_id, name)| {
            let mut times = responders.get(&user_id).cloned().unwrap_or_default();
            times.sort_unstable();
            AgentRow {
                conversations_handled: handled.get(&user_id).copied().unwrap_or_default(),
                first_response_median_secs: median_secs(&times),
                user_id,
                name,
            }
        })
        .collect();
    agents.sort_by_key(|agent| std::cmp::Reverse(agent.conversations_handled));
    let mut total = Tally::default();
    for tally in &tallies {
        total.add(tally);
    }
    Ok(Report {
        from: range.local_iso(from),
        to: range.local_iso(to),
        bucket: range.bucket.name(),
        tz: range.tz.name().to_string(),
        buckets: range
            .starts
            .iter()
            .zip(tallies)
            .map(|(start, tally)| BucketRow {
                start: range.local_iso(*start),
                numbers: tally.numbers(),
            })
            .collect(),
        agents,
        totals: total.numbers(),
    })
}

/// Walks each conversation's history in time order. A conversation opens at its customer's
/// first message, and again when a customer message arrives while it is resolved (the server
/// logs that reopening as it happens; the message itself carries the customer's clock). The
/// first member's message after an opening is its first response; a change to resolved ends it.
/// Counts and durations go to the bucket of the event that completes them. Answers each
/// member's first response times (ms).
fn walk(rows: &[TimelineRow], range: &Range, tallies: &mut [Tally]) -> HashMap<String, Vec<i64>> {
    let mut responders: HashMap<String, Vec<i64>> = HashMap::new();
    for conversation in rows.chunk_by(|a, b| a.phone == b.phone) {
        let mut seen_customer = false;
        let mut resolved = false;
        // When the current opening happened, and whether it has had its first response.
        let mut opening: Option<(i64, bool)> = None;
        for row in conversation {
            let bucket = range.bucket_of(row.at);
            match &row.step {
                Step::Customer if !seen_customer => {
                    seen_customer = true;
                    // A first message to a conversation resolved before the customer wrote
                    // opens it once: the server's reopening that follows is the same opening.
                    resolved = false;
                    open(&mut opening, row.at, bucket, tallies);
                }
                Step::Customer => {}
                Step::Reopened => {
                    if resolved {
                        open(&mut opening, row.at, bucket, tallies);
                    }
                    resolved = false;
                }
                Step::Member(user) => {
                    if let Some((opened_at, answered @ false)) = &mut opening {
                        *answered = true;
                        if let Some(i) = bucket {
                            let took = row.at - *opened_at;
                            tallies[i].first_responses.push(took);
                            responders.entry(user.clone()).or_default().push(took);
                        }
                    }
                }
                Step::Status(status) => {
                    let now_resolved = status == "resolved";
                    if now_resolved && !resolved {
                        let opened_at = opening.take().map(|(at, _)| at);
                        if let Some(i) = bucket {
                            tallies[i].resolved += 1;
                            tallies[i]
                                .resolutions
                                .extend(opened_at.map(|at| row.at - at));
                        }
                    }
                    resolved = now_resolved;
                }
            }
        }
    }
    responders
}

/// Starts an opening at `at`.
fn open(opening: &mut Option<(i64, bool)>, at: i64, bucket: Option<usize>, tallies: &mut [Tally]) {
    *opening = Some((at, false));
    if let Some(i) = bucket {
        tallies[i].opened += 1;
    }
}

/// The median of sorted durations (ms), in whole seconds.
fn median_secs(sorted: &[i64]) -> Option<i64> {
    let n = sorted.len();
    let middle = match n {
        0 => return None,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    };
    Some(secs(middle))
}

/// The 90th percentile (nearest rank) of sorted durations (ms), in whole seconds.
fn p90_secs(sorted: &[i64]) -> Option<i64> {
    let rank = (sorted.len() * 9).div_ceil(10);
    sorted.get(rank.checked_sub(1)?).map(|ms| secs(*ms))
}

fn secs(ms: i64) -> i64 {
    (ms + 500).div_euclid(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_the_90th_percentile_are_taken_from_sorted_samples() {
        assert_eq!(median_secs(&[]), None);
        assert_eq!(p90_secs(&[]), None);
        assert_eq!(median_secs(&[1000, 3000]), Some(2));
        assert_eq!(median_secs(&[1000, 2000, 60_000]), Some(2));
        let ten: Vec<i64> = (1..=10).map(|s| s * 1000).collect();
        assert_eq!(p90_secs(&ten), Some(9));
        assert_eq!(p90_secs(&[4000]), Some(4));
    }
}
