//! Businesses apart: business B's owner and agents, naming what belongs to business A (its
//! customers' keys, message ids, people, bulk jobs, live channels), are answered as if it did
//! not exist, and A's data stays as it was.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::{CUSTOMER, Team, agent, customer_writes, team};
use crate::template_flow::quick_review;

/// A's team with its customer's conversation, and business B with an agent of its own.
struct Tenants {
    a: Team,
    b: Business,
    b_agent: (String, Session),
}

async fn tenants(app: TestApp, prefix: &str) -> Tenants {
    let a = team(app, &format!("{prefix}_a")).await;
    let b = a.app.business(&format!("{prefix}_b")).await;
    let b_agent = agent(&a.app, &b.session, &format!("{prefix}_b-agent")).await;
    Tenants { a, b, b_agent }
}

/// What A's owner sees of its customer: the list row and the whole history.
async fn snapshot(app: &TestApp, token: &str) -> (Vec<Value>, Value) {
    let (status, list) = app.get("/api/users?status=all", token).await;
    assert_eq!(status, 200, "{list}");
    let (status, history) = app
        .get(&format!("/api/conversation/{CUSTOMER}"), token)
        .await;
    assert_eq!(status, 200, "{history}");
    let rows = list["data"]["users"].as_array().expect("users").clone();
    (rows, history)
}

/// Asserts a refusal is the JSON 404.
fn not_found(what: &str, (status, body): (u16, Value)) {
    assert_eq!(status, 404, "{what}: {body}");
    assert_eq!(body["code"], "not_found", "{what}: {body}");
}

both_backends!(
    another_business_finds_none_of_a_customers_conversation_and_changes_nothing,
    |backend| async move {
        let t = tenants(spawn_app(backend).await, "iso_conv").await;
        let app = &t.a.app;
        let owner_a = &t.a.biz.session.access;
        let before = snapshot(app, owner_a).await;
        assert_eq!(before.0.len(), 1);
        assert_eq!(before.0[0]["unread_count"], 1);
        let a_agent = t.a.agents[0].0.clone();
        let a_message = "wamid.iso_conv_a-1";
        let conv = format!("/api/conversation/{CUSTOMER}");

        for token in [&t.b.session.access, &t.b_agent.1.access] {
            // A key without a conversation opens an empty one of B's own (a new chat).
            let (status, history) = app.get(&conv, token).await;
            assert_eq!(
                (status, &history["messages"]),
                (200, &json!([])),
                "{history}"
            );
            assert!(
                !history.to_string().contains(&t.a.biz.phone_number_id),
                "{history}"
            );
            let status = json!({"status": "resolved"});
            not_found(
                "status",
                app.patch(&format!("{conv}/status"), status, token).await,
            );
            for assignee in [json!(a_agent), json!(t.b_agent.0), Value::Null] {
                let body = json!({"assignee_id": assignee});
                let (status, answer) = app.patch(&format!("{conv}/assignment"), body, token).await;
                // An agent handing to someone else is refused by the role rule first (403).
                let expected = match (token == &t.b_agent.1.access, &assignee) {
                    (true, Value::String(id)) if *id != t.b_agent.0 => (403, "forbidden"),
                    _ => (404, "not_found"),
                };
                assert_eq!(
                    (status, answer["code"].as_str()),
                    (expected.0, Some(expected.1))
                );
            }
            let note = json!({"text": "a note in the wrong inbox"});
            not_found(
                "note",
                app.post(&format!("{conv}/notes"), note, Some(token)).await,
            );
            let labels = json!({"labels": []});
            not_found(
                "labels",
                app.put(&format!("{conv}/labels"), labels, token).await,
            );
            let reaction = format!("{conv}/messages/{a_message}/reaction");
            let emoji = json!({"emoji": "👍"});
            not_found("reaction", app.post(&reaction, emoji, Some(token)).await);
            let rename = json!({"name": "Renamed", "phone_number": CUSTOMER});
            not_found(
                "rename",
                app.post("/api/users/update", rename, Some(token)).await,
            );
            let moved = json!({"name": "Moved", "phone_number": CUSTOMER,
                "new_phone_number": "4915199999999"});
            not_found(
                "move",
                app.post("/api/users/update", moved, Some(token)).await,
            );
            let delete = format!("/api/contacts/delete/{CUSTOMER}");
            not_found("delete", app.delete(&delete, token).await);
            // Marking read touches B's own (empty) inbox only.
            let (status, read) = app
                .post(&format!("{conv}/mark-as-read"), Value::Null, Some(token))
                .await;
            assert!(
                status == 404 || (status == 200 && read["modified_count"] == 0),
                "mark-as-read: {status} {read}"
            );

            // Nor does B find A's customer in its list, counts or search.
            let (_, list) = app.get("/api/users?status=all", token).await;
            assert_eq!(list["data"]["users"], json!([]), "{list}");
            let (_, counts) = app.get("/api/users/counts?status=all", token).await;
            assert_eq!(counts, json!({"mine": 0, "unassigned": 0, "all": 0}));
            for query in ["q=hello", &format!("q=hello&conversation={CUSTOMER}")] {
                let (status, found) = app.get(&format!("/api/search?{query}"), token).await;
                assert_eq!(status, 200, "{found}");
                assert_eq!(found["results"], json!([]), "{query}: {found}");
            }
        }

        assert_eq!(snapshot(app, owner_a).await, before);
    }
);

both_backends!(
    a_customer_of_two_businesses_is_two_conversations_that_never_mix,
    |backend| async move {
        let t = tenants(spawn_app(backend).await, "iso_both").await;
        let app = &t.a.app;
        let (owner_a, owner_b) = (&t.a.biz.session.access, &t.b.session.access);
        customer_writes(app, &t.b, "wamid.iso_both_b-1").await;
        let before = snapshot(app, owner_a).await;
        let conv = format!("/api/conversation/{CUSTOMER}");

        // B's conversation holds only B's message: A's message id is not found in it.
        let (_, history) = app.get(&conv, owner_b).await;
        let ids: Vec<&Value> = history["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| &m["message_id"])
            .collect();
        assert_eq!(ids, [&json!("wamid.iso_both_b-1")]);
        let reaction = format!("{conv}/messages/wamid.iso_both_a-1/reaction");
        not_found(
            "reaction",
            app.post(&reaction, json!({"emoji": "👍"}), Some(owner_b))
                .await,
        );

        // What B does to its own conversation stays in B.
        let note = json!({"text": "zebracode for B only"});
        let (status, body) = app
            .post(&format!("{conv}/notes"), note, Some(owner_b))
            .await;
        assert_eq!(status, 201, "{body}");
        let resolved = json!({"status": "resolved"});
        let (status, body) = app
            .patch(&format!("{conv}/status"), resolved, owner_b)
            .await;
        assert_eq!(status, 200, "{body}");
        let assigned = json!({"assignee_id": t.b_agent.0});
        let (status, body) = app
            .patch(&format!("{conv}/assignment"), assigned, owner_b)
            .await;
        assert_eq!(status, 200, "{body}");
        let label = app.label(owner_b, "B's", "#5319E7").await;
        let (status, body) = app
            .put(
                &format!("{conv}/labels"),
                json!({"labels": [label]}),
                owner_b,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app
            .post(&format!("{conv}/mark-as-read"), Value::Null, Some(owner_b))
            .await;
        assert_eq!(status, 200, "{body}");

        for (token, query) in [
            (owner_a, "q=zebracode".to_string()),
            (owner_a, format!("q=zebracode&conversation={CUSTOMER}")),
        ] {
            let (status, found) = app.get(&format!("/api/search?{query}"), token).await;
            assert_eq!(status, 200, "{found}");
            assert_eq!(found["results"], json!([]), "{query}: {found}");
        }
        let (_, found) = app
            .get(
                &format!("/api/search?q=zebracode&conversation={CUSTOMER}"),
                owner_b,
            )
            .await;
        assert_eq!(
            found["results"].as_array().expect("results").len(),
            1,
            "{found}"
        );
        assert_eq!(snapshot(app, owner_a).await, before);
    }
);

both_backends!(
    an_owner_cannot_hand_a_conversation_to_another_business_member,
    |backend| async move {
        let t = tenants(spawn_app(backend).await, "iso_assign").await;
        let app = &t.a.app;
        let owner_a = &t.a.biz.session.access;
        let before = snapshot(app, owner_a).await;
        let b_owner_id = app
            .get("/identity/users/profile", &t.b.session.access)
            .await
            .1["_id"]
            .as_str()
            .expect("id")
            .to_string();
        let path = format!("/api/conversation/{CUSTOMER}/assignment");
        for stranger in [&t.b_agent.0, &b_owner_id] {
            for claim in [false, true] {
                let body = json!({"assignee_id": stranger, "claim": claim});
                let (status, error) = app.patch(&path, body, owner_a).await;
                assert_eq!(status, 422, "{error}");
                assert_eq!(error["code"], "validation_failed");
                let detail = error["detail"].as_str().expect("detail");
                assert!(detail.contains("assignee_id"), "{error}");
            }
        }
        // B's agent cannot take it either.
        let body = json!({"assignee_id": t.b_agent.0, "claim": true});
        not_found("claim", app.patch(&path, body, &t.b_agent.1.access).await);
        assert_eq!(snapshot(app, owner_a).await, before);
    }
);

both_backends!(
    another_business_cannot_follow_a_bulk_job,
    |backend| async move {
        let app = quick_review(backend).await;
        let a = app.business("iso_job_a").await;
        let b = app.business("iso_job_b").await;
        let (_, b_agent) = agent(&app, &b.session, "iso_job_b-agent").await;
        app.approved_template(&a, "order_update").await;
        let job = app.start_bulk_job(&a, &["447700900123".to_string()]).await;
        let report = app.finished_job(&a, &job, Duration::from_secs(15)).await;

        let path = format!("/api/send-template/jobs/{job}");
        for token in [&b.session.access, &b_agent.access] {
            let (status, body) = app.get(&path, token).await;
            assert_eq!(status, 404, "{body}");
            assert_eq!(body["code"], "not_found", "{body}");
        }
        let (status, again) = app.get(&path, &a.session.access).await;
        assert_eq!((status, again), (200, report));
    }
);

both_backends!(
    another_business_following_a_conversations_channel_hears_nothing,
    |backend| async move {
        let t = tenants(spawn_app(backend).await, "iso_live").await;
        let app = &t.a.app;
        let channel = format!("{}_{CUSTOMER}", t.a.biz.phone_number_id);
        let mut a_watcher = WsClient::connect(app, &t.a.biz.session.access).await;
        a_watcher.subscribe(&channel).await;
        let mut b_watchers = Vec::new();
        for token in [&t.b.session.access, &t.b_agent.1.access] {
            let mut ws = WsClient::connect(app, token).await;
            ws.subscribe(&channel).await;
            ws.subscribe("notifications/all").await;
            b_watchers.push(ws);
        }
        let stream = format!("/api/events/stream/{channel}");
        let mut b_stream = SseClient::open(app, &stream, &t.b.session.access, None).await;

        customer_writes(app, &t.a.biz, "wamid.iso_live_a-2").await;
        let note = json!({"text": "for A's team only"});
        let (status, body) = app
            .post(
                &format!("/api/conversation/{CUSTOMER}/notes"),
                note,
                Some(&t.a.biz.session.access),
            )
            .await;
        assert_eq!(status, 201, "{body}");

        let heard = a_watcher.next_frame().await;
        assert_eq!(heard["event"], "new_message", "{heard}");
        for ws in &mut b_watchers {
            ws.assert_quiet(Duration::from_secs(1)).await;
        }
        let heard = tokio::time::timeout(Duration::from_millis(300), b_stream.next_event()).await;
        assert!(heard.is_err(), "B's stream heard {heard:?}");
    }
);
