//! The session actor with an in-memory event log: replay order, duplicates, slow consumers.

use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use futures_util::future::BoxFuture;
use parley_actors::event_log::{EventLog, Replay};
use parley_actors::events::{Event, event_data};
use parley_actors::hub::{CatchUp, Hub, InProcessBus, Publish};
use parley_actors::queue;
use parley_actors::session::{ClientOp, Frame, SessionActor, SessionSetup, Transport};
use serde_json::{Value, json};

fn event(seq: i64) -> Event {
    Event {
        business_id: "b1".into(),
        seq,
        channels: vec!["c".into()],
        name: "new_message".into(),
        data: event_data(&json!({"n": seq})),
    }
}

/// A log holding events 1..=10, answering after a delay so live events arrive meanwhile.
struct SlowLog;

impl EventLog for SlowLog {
    fn since(
        &self,
        _: &str,
        after: i64,
    ) -> BoxFuture<'static, Result<Replay, parley_actors::error::StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            Ok(Replay::Events((after + 1..=10).map(event).collect()))
        })
    }
}

fn session(
    hub: &actix::Addr<Hub>,
    capacity: usize,
    resume_from: Option<i64>,
) -> queue::Receiver<Frame> {
    started(hub, capacity, resume_from).1
}

/// A session following "c" on `hub`, and its address (for the client's ops).
fn started(
    hub: &actix::Addr<Hub>,
    capacity: usize,
    resume_from: Option<i64>,
) -> (actix::Addr<SessionActor>, queue::Receiver<Frame>) {
    following(hub, capacity, resume_from, vec!["c".into()])
}

/// A session following `channels` from its start.
fn following(
    hub: &actix::Addr<Hub>,
    capacity: usize,
    resume_from: Option<i64>,
    channels: Vec<String>,
) -> (actix::Addr<SessionActor>, queue::Receiver<Frame>) {
    let (out, frames) = queue::bounded(capacity);
    let session = SessionActor::new(SessionSetup {
        business_id: "b1".into(),
        user_id: "u1".into(),
        name: "Agent One".into(),
        bus: Arc::new(InProcessBus(hub.clone())),
        transport: Transport::WebSocket,
        hub: hub.downgrade(),
        log: Arc::new(SlowLog),
        out,
        channels,
        expires_in: Duration::from_secs(60),
        resume_from,
    })
    .start();
    (session, frames)
}

async fn next_json(frames: &mut queue::Receiver<Frame>) -> Value {
    match tokio::time::timeout(Duration::from_secs(2), frames.recv()).await {
        Ok(Some(Frame::Text(text))) => serde_json::from_str(&text).expect("json"),
        other => panic!("expected a text frame, got {other:?}"),
    }
}

#[actix::test]
async fn a_resume_replays_the_log_then_live_events_in_order_without_duplicates() {
    // Events up to 8 were published before this session connected.
    let hub = Hub::resuming([("b1".to_string(), 8)].into()).start();
    let mut frames = session(&hub, 64, Some(4));
    assert_eq!(next_json(&mut frames).await["event"], "ready");
    tokio::time::sleep(Duration::from_millis(20)).await;
    // Live while the replay is still loading: 9 and 10 are also in the log, 11 is new.
    for seq in 9..=11 {
        hub.do_send(Publish(vec![event(seq)]));
    }
    let mut seqs = Vec::new();
    for _ in 5..=11 {
        seqs.push(next_json(&mut frames).await["seq"].as_i64().expect("seq"));
    }
    assert_eq!(seqs, (5..=11).collect::<Vec<_>>());
    assert!(
        tokio::time::timeout(Duration::from_millis(200), frames.recv())
            .await
            .is_err()
    );
}

#[actix::test]
async fn a_consumer_that_cannot_keep_up_is_closed_not_buffered() {
    let hub = Hub::default().start();
    let mut frames = session(&hub, 4, None);
    tokio::time::sleep(Duration::from_millis(50)).await;
    for seq in 1..=20 {
        hub.do_send(Publish(vec![event(seq)]));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut received = Vec::new();
    while let Ok(Some(frame)) =
        tokio::time::timeout(Duration::from_millis(200), frames.recv()).await
    {
        received.push(frame);
    }
    assert!(received.len() <= 4, "{received:?}");
    assert_eq!(
        received.last(),
        Some(&Frame::Close(
            "slow consumer: too many undelivered events".into()
        ))
    );
}

#[actix::test]
async fn events_published_together_reach_every_follower_once_in_seq_order() {
    let hub = Hub::default().start();
    let mut first = session(&hub, 64, None);
    let mut second = session(&hub, 64, None);
    for frames in [&mut first, &mut second] {
        assert_eq!(next_json(frames).await["event"], "ready");
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    // One commit's events, handed over out of order: the hub puts them back in seq order.
    hub.do_send(Publish(vec![event(2), event(1), event(3)]));
    for frames in [&mut first, &mut second] {
        let mut seqs = Vec::new();
        for _ in 1..=3 {
            seqs.push(next_json(frames).await["seq"].as_i64().expect("seq"));
        }
        assert_eq!(seqs, [1, 2, 3]);
        assert!(
            tokio::time::timeout(Duration::from_millis(200), frames.recv())
                .await
                .is_err()
        );
    }
}

/// A hub reading missing events from `SlowLog`, started where b1's log stood at `seq`, and a
/// session following "c" through it, past its `ready`.
async fn reading_hub(seq: i64) -> (actix::Addr<Hub>, queue::Receiver<Frame>) {
    let hub = Hub::resuming([("b1".to_string(), seq)].into())
        .reading(Arc::new(SlowLog))
        .start();
    let mut frames = session(&hub, 64, None);
    assert_eq!(next_json(&mut frames).await["event"], "ready");
    tokio::time::sleep(Duration::from_millis(20)).await;
    (hub, frames)
}

/// The seqs of the next `count` frames, then checks that nothing else comes.
async fn only_seqs(frames: &mut queue::Receiver<Frame>, count: usize) -> Vec<i64> {
    let mut seqs = Vec::new();
    for _ in 0..count {
        seqs.push(next_json(frames).await["seq"].as_i64().expect("seq"));
    }
    let more = tokio::time::timeout(Duration::from_millis(300), frames.recv()).await;
    assert!(more.is_err(), "{more:?}");
    seqs
}

#[actix::test]
async fn events_missing_before_a_published_one_are_read_from_the_log() {
    // 1 and 2 are logged, but their publish never comes (another node's notice was lost); 4 to
    // 10 are logged too but not published yet: not taken ahead of their own publish.
    let (hub, mut frames) = reading_hub(0).await;
    hub.do_send(Publish(vec![event(3)]));
    assert_eq!(only_seqs(&mut frames, 3).await, vec![1, 2, 3]);
}

#[actix::test]
async fn a_catch_up_reads_the_log_past_the_last_routed_event() {
    let (hub, mut frames) = reading_hub(8).await;
    hub.do_send(CatchUp);
    // A later publish of an event already read goes out once.
    tokio::time::sleep(Duration::from_millis(200)).await;
    hub.do_send(Publish(vec![event(10)]));
    assert_eq!(only_seqs(&mut frames, 2).await, vec![9, 10]);
}

#[actix::test]
async fn a_resume_behind_an_event_already_sent_live_resets_instead_of_losing_the_gap() {
    // The client subscribed, then resumed; event 9 went out live before its resume came.
    let hub = Hub::resuming([("b1".to_string(), 8)].into()).start();
    let (behind, mut behind_frames) = started(&hub, 64, None);
    let (caught_up, mut caught_up_frames) = started(&hub, 64, None);
    for frames in [&mut behind_frames, &mut caught_up_frames] {
        assert_eq!(next_json(frames).await["event"], "ready");
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    hub.do_send(Publish(vec![event(9)]));
    for frames in [&mut behind_frames, &mut caught_up_frames] {
        assert_eq!(next_json(frames).await["seq"], 9);
    }
    // Seen up to 4: 5 to 8 can no longer come before 9, so the client is told to re-fetch.
    behind.do_send(ClientOp::Resume(4, Vec::new()));
    assert_eq!(next_json(&mut behind_frames).await["event"], "reset");
    // Seen up to 8: nothing is missing before 9; the replay brings 10, once.
    caught_up.do_send(ClientOp::Resume(8, Vec::new()));
    assert_eq!(only_seqs(&mut caught_up_frames, 1).await, vec![10]);
}

#[actix::test]
async fn a_resume_naming_its_channels_follows_them_and_replays_without_a_reset() {
    // A reconnect: the new socket follows nothing yet; event 9 is published before its frame.
    let hub = Hub::resuming([("b1".to_string(), 8)].into()).start();
    let (session, mut frames) = following(&hub, 64, None, Vec::new());
    assert_eq!(next_json(&mut frames).await["event"], "ready");
    tokio::time::sleep(Duration::from_millis(20)).await;
    hub.do_send(Publish(vec![event(9)]));
    tokio::time::sleep(Duration::from_millis(20)).await;
    session.do_send(ClientOp::Resume(4, vec!["c".into()]));
    let subscribed = next_json(&mut frames).await;
    assert_eq!(subscribed, json!({"event": "subscribed", "channel": "c"}));
    // Live while the replay loads: 10 is also in the log, 11 is new.
    tokio::time::sleep(Duration::from_millis(20)).await;
    for seq in 10..=11 {
        hub.do_send(Publish(vec![event(seq)]));
    }
    assert_eq!(
        only_seqs(&mut frames, 7).await,
        (5..=11).collect::<Vec<_>>()
    );
}

#[test]
fn a_resume_frame_may_name_the_channels_to_follow() {
    let named = ClientOp::parse(r#"{"op": "resume", "after": 7, "channels": ["a", "b"]}"#);
    assert!(
        matches!(named, ClientOp::Resume(7, ref c) if *c == ["a", "b"]),
        "{named:?}"
    );
    let bare = ClientOp::parse(r#"{"op": "resume", "after": 7}"#);
    assert!(
        matches!(bare, ClientOp::Resume(7, ref c) if c.is_empty()),
        "{bare:?}"
    );
    let odd = ClientOp::parse(r#"{"op": "resume", "after": 7, "channels": ["a", 3]}"#);
    assert!(matches!(odd, ClientOp::Invalid), "{odd:?}");
}
