//! Team workflow: status and snoozes, assignment and its claim lock, the send check, the list's
//! filters and tab counts, and the activity entries in the history.

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

/// The customer every team test talks to.
pub const CUSTOMER: &str = "4915112345678";

/// A business with a conversation, and two agents signed in.
pub struct Team {
    pub app: TestApp,
    pub biz: Business,
    pub agents: Vec<(String, Session)>,
}

/// Creates an agent as the owner and signs them in; answers (id, session).
pub async fn agent(app: &TestApp, owner: &Session, username: &str) -> (String, Session) {
    let (status, body) = app
        .post(
            "/identity/users/agents",
            json!({
                "firstName": "Agent",
                "lastName": username,
                "username": username,
                "email": format!("{username}@example.com"),
                "password": PASSWORD,
            }),
            Some(&owner.access),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = body["_id"].as_str().expect("agent id").to_string();
    let (status, body) = app.login(username, PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    (id, session_of(&body))
}

/// A customer message arrives, which makes the conversation.
pub async fn customer_writes(app: &TestApp, biz: &Business, id: &str) {
    let mut message = text(CUSTOMER, id, "hello");
    // Now, so the reply window is open.
    message["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
    let (status, body) = app
        .webhook(
            &inbound(&biz.phone_number_id, CUSTOMER, "Customer", vec![message]),
            &biz.app_secret,
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

pub async fn team(app: TestApp, owner: &str) -> Team {
    let biz = app.business(owner).await;
    customer_writes(&app, &biz, &format!("wamid.{owner}-1")).await;
    let mut agents = Vec::new();
    for n in 1..=2 {
        agents.push(agent(&app, &biz.session, &format!("{owner}-agent{n}")).await);
    }
    Team { app, biz, agents }
}

impl TestApp {
    pub async fn patch(&self, path: &str, body: Value, token: &str) -> (u16, Value) {
        self.call(reqwest::Method::PATCH, path, Some(body), Some(token))
            .await
    }
}

fn assignment(path_body: Value) -> (String, Value) {
    (
        format!("/api/conversation/{CUSTOMER}/assignment"),
        path_body,
    )
}

/// The list's rows for a query.
async fn rows(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let (status, body) = app.get(&format!("/api/users?{query}"), token).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["users"].as_array().expect("users").clone()
}

/// The history's internal entries.
async fn activity(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, body) = app
        .get(&format!("/api/conversation/{CUSTOMER}"), token)
        .await;
    assert_eq!(status, 200, "{body}");
    body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["direction"] == "internal")
        .cloned()
        .collect()
}

both_backends!(
    a_new_conversation_is_open_and_unassigned_and_its_status_changes_are_logged,
    |backend| async move {
        let t = team(spawn_app(backend).await, "status_owner").await;
        let owner = &t.biz.session.access;
        let row = &rows(&t.app, owner, "").await[0];
        assert_eq!(row["status"], "open");
        assert_eq!(row["snoozed_until"], Value::Null);
        assert_eq!(row["assignee"], Value::Null);

        let mut ws = WsClient::connect(&t.app, owner).await;
        ws.subscribe("notifications/all").await;
        let path = format!("/api/conversation/{CUSTOMER}/status");
        let (status, row) = t
            .app
            .patch(&path, json!({"status": "resolved"}), owner)
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["status"], "resolved");
        assert_eq!(row["phone_number"], CUSTOMER);
        let event = ws.next_frame().await;
        assert_eq!(event["event"], "conversation_updated", "{event}");
        assert_eq!(event["data"]["status"], "resolved");
        assert_eq!(event["data"]["phone_number"], CUSTOMER);
        assert_eq!(event["data"]["by"]["name"], "Test status_owner");

        // The default tab shows open conversations only.
        assert!(rows(&t.app, owner, "").await.is_empty());
        assert_eq!(rows(&t.app, owner, "status=resolved").await.len(), 1);
        assert_eq!(rows(&t.app, owner, "status=all").await.len(), 1);

        let entries = activity(&t.app, owner).await;
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0]["type"], "activity");
        assert_eq!(entries[0]["sender_name"], "Test status_owner");
        assert_eq!(entries[0]["is_read"], true);
        assert_eq!(entries[0]["content"]["activity"]["action"], "status");
        assert_eq!(entries[0]["content"]["activity"]["status"], "resolved");

        // A customer's new message reopens it; the activity is not the list's preview.
        customer_writes(&t.app, &t.biz, "wamid.status-2").await;
        let reopened = loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "conversation_updated" {
                break frame["data"].clone();
            }
        };
        assert_eq!(reopened["status"], "open", "{reopened}");
        assert_eq!(reopened["reason"], "customer_message");
        assert_eq!(reopened["by"], Value::Null);
        let row = &rows(&t.app, owner, "").await[0];
        assert_eq!(row["status"], "open");
        assert_eq!(row["last_message_content"]["text"], "hello");
        assert_eq!(row["unread_count"], 2);
    }
);

both_backends!(
    bad_statuses_and_snoozes_answer_422_naming_the_field,
    |backend| async move {
        let t = team(spawn_app(backend).await, "bad_status").await;
        let owner = &t.biz.session.access;
        let path = format!("/api/conversation/{CUSTOMER}/status");
        for (body, field) in [
            (json!({"status": "closed"}), "status"),
            (json!({}), "status"),
            (json!({"status": "snoozed"}), "snoozed_until"),
            (
                json!({"status": "snoozed", "snoozed_until": "2001-01-01T00:00:00Z"}),
                "snoozed_until",
            ),
            (
                json!({"status": "snoozed", "snoozed_until": "tomorrow"}),
                "snoozed_until",
            ),
            // Milliseconds past any calendar's reach.
            (
                json!({"status": "snoozed", "snoozed_until": i64::MAX.to_string()}),
                "snoozed_until",
            ),
            (
                json!({"status": "open", "snoozed_until": "2999-01-01T00:00:00Z"}),
                "snoozed_until",
            ),
        ] {
            let (status, error) = t.app.patch(&path, body.clone(), owner).await;
            assert_eq!(status, 422, "{body}: {error}");
            assert_eq!(error["code"], "validation_failed");
            assert!(error["detail"].as_str().expect("detail").contains(field));
        }
        let (status, error) = t
            .app
            .patch(
                "/api/conversation/4900000000/status",
                json!({"status": "open"}),
                owner,
            )
            .await;
        assert_eq!((status, &error["code"]), (404, &json!("not_found")));
        let (status, error) = t.app.get("/api/users?status=gone", owner).await;
        assert_eq!((status, &error["code"]), (422, &json!("validation_failed")));
    }
);

both_backends!(
    a_snooze_wakes_at_its_time_and_says_why,
    |backend| async move {
        let t = team(spawn_app(backend).await, "snoozer").await;
        let owner = &t.biz.session.access;
        let mut ws = WsClient::connect(&t.app, owner).await;
        ws.subscribe("notifications/all").await;
        let until = chrono::Utc::now() + chrono::Duration::milliseconds(1500);
        let (status, row) = t
            .app
            .patch(
                &format!("/api/conversation/{CUSTOMER}/status"),
                json!({"status": "snoozed", "snoozed_until": until.to_rfc3339()}),
                owner,
            )
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["status"], "snoozed");
        assert!(row["snoozed_until"].is_string());
        assert_eq!(ws.next_frame().await["data"]["status"], "snoozed");
        let woken = ws.next_frame().await;
        assert_eq!(woken["event"], "conversation_updated", "{woken}");
        assert_eq!(woken["data"]["status"], "open");
        assert_eq!(woken["data"]["reason"], "snooze_ended");
        assert_eq!(woken["data"]["by"], Value::Null);
        assert_eq!(rows(&t.app, owner, "").await[0]["status"], "open");
    }
);

both_backends!(
    assignment_follows_the_roles_and_is_logged,
    |backend| async move {
        let t = team(spawn_app(backend).await, "assigner").await;
        let owner = &t.biz.session.access;
        let (one_id, one) = &t.agents[0];
        let (two_id, _) = &t.agents[1];
        let (path, body) = assignment(json!({"assignee_id": one_id}));
        let (status, row) = t.app.patch(&path, body, owner).await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(
            row["assignee"],
            json!({"id": one_id, "name": "Agent assigner-agent1"})
        );
        // An agent may not hand a conversation to someone else.
        let (status, error) = t
            .app
            .patch(&path, json!({"assignee_id": two_id}), &one.access)
            .await;
        assert_eq!((status, &error["code"]), (403, &json!("forbidden")));
        // …nor to a stranger, even as the owner.
        let (status, error) = t
            .app
            .patch(&path, json!({"assignee_id": "nobody"}), owner)
            .await;
        assert_eq!(status, 422, "{error}");
        assert!(
            error["detail"]
                .as_str()
                .expect("detail")
                .contains("assignee_id")
        );

        assert_eq!(rows(&t.app, &one.access, "assignee=me").await.len(), 1);
        assert!(
            rows(&t.app, &one.access, "assignee=unassigned")
                .await
                .is_empty()
        );
        let (_, counts) = t.app.get("/api/users/counts", &one.access).await;
        assert_eq!(counts, json!({"mine": 1, "unassigned": 0, "all": 1}));
        let (_, counts) = t.app.get("/api/users/counts?status=resolved", owner).await;
        assert_eq!(counts, json!({"mine": 0, "unassigned": 0, "all": 0}));

        let (status, row) = t
            .app
            .patch(&path, json!({"assignee_id": null}), &one.access)
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["assignee"], Value::Null);
        let (_, counts) = t.app.get("/api/users/counts", &one.access).await;
        assert_eq!(counts, json!({"mine": 0, "unassigned": 1, "all": 1}));

        let entries = activity(&t.app, owner).await;
        let actions: Vec<_> = entries
            .iter()
            .map(|e| e["content"]["activity"]["action"].clone())
            .collect();
        assert_eq!(actions, vec![json!("assigned"), json!("unassigned")]);
        assert_eq!(entries[0]["content"]["activity"]["assignee"]["id"], *one_id);
        assert_eq!(entries[1]["sender_name"], "Agent assigner-agent1");
    }
);

both_backends!(
    of_many_agents_claiming_at_once_exactly_one_wins,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("claims").await;
        customer_writes(&app, &biz, "wamid.claims-1").await;
        let mut agents = Vec::new();
        for n in 0..6 {
            agents.push(agent(&app, &biz.session, &format!("claimer{n}")).await);
        }
        let claims = agents.iter().map(|(id, session)| {
            let (path, body) = assignment(json!({"assignee_id": id, "claim": true}));
            let app = &app;
            async move { app.patch(&path, body, &session.access).await }
        });
        let answers = join_all(claims).await;
        let winners: Vec<_> = answers
            .iter()
            .filter(|(status, _)| *status == 200)
            .collect();
        assert_eq!(winners.len(), 1, "{answers:?}");
        let winner = &winners[0].1["assignee"];
        for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
            assert_eq!(*status, 409, "{body}");
            assert_eq!(body["code"], "assigned_to_other");
            assert_eq!(body["assignee"], *winner);
        }
        // The winner's claim again is no conflict.
        let session = &agents
            .iter()
            .find(|(id, _)| json!(id) == winner["id"])
            .expect("winner")
            .1;
        let (path, body) = assignment(json!({"assignee_id": winner["id"], "claim": true}));
        assert_eq!(app.patch(&path, body, &session.access).await.0, 200);
    }
);

both_backends!(
    an_agent_answers_someone_elses_conversation_only_by_taking_it_over,
    |backend| async move {
        let t = team(spawn_app(backend).await, "taker").await;
        let (one_id, one) = &t.agents[0];
        let (two_id, two) = &t.agents[1];
        let (path, body) = assignment(json!({"assignee_id": one_id, "claim": true}));
        assert_eq!(t.app.patch(&path, body, &one.access).await.0, 200);

        let form = || {
            reqwest::multipart::Form::new()
                .text("to", CUSTOMER)
                .text("message_type", "text")
                .text("text", "I can help")
        };
        let (status, error) = t.app.send_form(&two.access, form()).await;
        assert_eq!(status, 409, "{error}");
        assert_eq!(error["code"], "assigned_to_other");
        assert_eq!(error["assignee"]["id"], *one_id);
        let (status, error) = t
            .app
            .post_form("/api/send-template", &two.access, {
                reqwest::multipart::Form::new()
                    .text("template_name", "hello_world")
                    .text("language_code", "en_US")
                    .text("to", CUSTOMER)
            })
            .await;
        assert_eq!((status, &error["code"]), (409, &json!("assigned_to_other")));

        // The owner may always send, and the conversation stays the agent's.
        let (status, body) = t.app.send_form(&t.biz.session.access, form()).await;
        assert!(status < 300, "{status} {body}");
        let (status, body) = t
            .app
            .send_form(&two.access, form().text("take_over", "true"))
            .await;
        assert!(status < 300, "{status} {body}");
        let row = &rows(&t.app, &two.access, "").await[0];
        assert_eq!(row["assignee"]["id"], *two_id);
    }
);

both_backends!(
    a_removed_agents_conversations_go_back_to_unassigned,
    |backend| async move {
        let t = team(spawn_app(backend).await, "remover").await;
        let owner = &t.biz.session.access;
        let (one_id, one) = &t.agents[0];
        let (path, body) = assignment(json!({"assignee_id": one_id, "claim": true}));
        assert_eq!(t.app.patch(&path, body, &one.access).await.0, 200);
        let (status, _) = t
            .app
            .call(
                reqwest::Method::DELETE,
                &format!("/identity/users/agents/{one_id}"),
                None,
                Some(owner),
            )
            .await;
        assert_eq!(status, 200);
        let row = &rows(&t.app, owner, "assignee=unassigned").await[0];
        assert_eq!(row["assignee"], Value::Null);
        let entries = activity(&t.app, owner).await;
        let last = &entries.last().expect("activity")["content"]["activity"];
        assert_eq!(last["action"], "unassigned");
        assert_eq!(last["reason"], "agent_removed");
    }
);
