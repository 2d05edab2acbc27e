//! Team workflow beyond one process and its order: a snooze stored before a restart still wakes,
//! an assignment or a presence made through one node reaches the sessions of another, and a
//! customer's message followed up late leaves a conversation resolved after it.

use std::time::{Duration, Instant};

use parley_actors::conversation::ConversationKey;
use serde_json::json;

use crate::both_backends;
use crate::cluster::two_nodes;
use crate::crash::{start, unstarted_app};
use crate::helpers::spawn_app;
use crate::live::*;
use crate::team::{CUSTOMER, agent, customer_writes};

both_backends!(
    a_message_followed_up_late_leaves_a_conversation_resolved_after_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("late_follow_up").await;
        customer_writes(&app, &biz, "wamid.late-1").await;
        let stored_at = parley_server::store::now_ms();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let path = format!("/api/conversation/{CUSTOMER}/status");
        let token = &biz.session.access;
        let (status, row) = app.patch(&path, json!({"status": "resolved"}), token).await;
        assert_eq!(status, 200, "{row}");

        // The message's follow-up, however late it runs, keeps what the member did after it.
        let (store, business_id) = store_of(&app, &biz).await;
        let key = ConversationKey {
            business_id,
            phone: CUSTOMER.into(),
        };
        let events = store.reopen(&key, stored_at).await.expect("reopen");
        assert!(events.is_empty(), "reopened by an older message");
        let (_, list) = app.get("/api/users?status=resolved", token).await;
        assert_eq!(list["data"]["users"][0]["phone_number"], CUSTOMER, "{list}");

        // A message stored after the resolve opens it again.
        let later = parley_server::store::now_ms();
        let events = store.reopen(&key, later).await.expect("reopen");
        assert!(!events.is_empty(), "not reopened");
        let (_, list) = app.get("/api/users", token).await;
        assert_eq!(list["data"]["users"][0]["status"], "open", "{list}");
    }
);

both_backends!(
    a_snooze_stored_before_a_restart_wakes_after_it,
    |backend| async move {
        let mut app = unstarted_app(backend).await;
        let mut server = start(&mut app, "", &[]).await;
        let biz = app.business("restarted").await;
        customer_writes(&app, &biz, "wamid.restart-1").await;
        let until = chrono::Utc::now() + chrono::Duration::seconds(3);
        let (status, row) = app
            .patch(
                &format!("/api/conversation/{CUSTOMER}/status"),
                json!({"status": "snoozed", "snoozed_until": until.to_rfc3339()}),
                &biz.session.access,
            )
            .await;
        assert_eq!(status, 200, "{row}");
        server.0.kill().expect("SIGKILL");
        server.0.wait().expect("reaped");
        drop(server);

        let _server = start(&mut app, "", &[]).await;
        let deadline = Instant::now() + Duration::from_secs(30);
        let row = loop {
            let (_, list) = app.get("/api/users?status=all", &biz.session.access).await;
            let row = list["data"]["users"][0].clone();
            if row["status"] == "open" || Instant::now() > deadline {
                break row;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert_eq!(row["status"], "open", "{row}");
        assert_eq!(row["snoozed_until"], serde_json::Value::Null);
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let reasons: Vec<_> = history["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .filter_map(|m| m["content"]["activity"]["reason"].as_str())
            .collect();
        assert_eq!(reasons, vec!["snooze_ended"]);
    }
);

#[actix_web::test]
async fn an_assignment_made_on_one_node_reaches_a_session_on_another() {
    let (a, b) = two_nodes().await;
    let biz = a.business("two_node_team").await;
    customer_writes(&a, &biz, "wamid.two-node-1").await;
    let (agent_id, agent) = agent(&a, &biz.session, "two-node-agent").await;
    let mut on_b = WsClient::connect(&b, &biz.session.access).await;
    on_b.subscribe("notifications/all").await;
    let (status, row) = a
        .patch(
            &format!("/api/conversation/{CUSTOMER}/assignment"),
            json!({"assignee_id": agent_id, "claim": true}),
            &agent.access,
        )
        .await;
    assert_eq!(status, 200, "{row}");
    let event = on_b.next_frame().await;
    assert_eq!(event["event"], "conversation_updated", "{event}");
    assert_eq!(event["data"]["assignee"]["id"], agent_id);
    assert_eq!(event["data"]["by"]["id"], agent_id);
}

#[actix_web::test]
async fn presence_on_one_node_reaches_a_session_on_another() {
    let (a, b) = two_nodes().await;
    let biz = a.business("two_node_presence").await;
    customer_writes(&a, &biz, "wamid.two-node-presence").await;
    let (agent_id, agent) = agent(&a, &biz.session, "presence-agent").await;
    let channel = format!("{}_{CUSTOMER}", biz.phone_number_id);
    let mut on_a = WsClient::connect(&a, &agent.access).await;
    on_a.subscribe(&channel).await;
    let mut on_b = WsClient::connect(&b, &biz.session.access).await;
    on_b.subscribe(&channel).await;
    on_a.send(json!({"op": "presence", "channel": channel, "state": "viewing"}))
        .await;
    let seen = on_b.next_frame().await;
    assert_eq!(seen["event"], "agent_activity", "{seen}");
    assert_eq!(seen["data"]["user_id"], agent_id);
    assert_eq!(seen["data"]["state"], "viewing");
}
