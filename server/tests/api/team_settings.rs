//! The business's team settings in the profile: everyone reads them, the owner writes them; a
//! claim ends when its customer has waited longer than the claim timeout; round-robin mode
//! assigns new conversations to connected agents, ties to the one longest since their last
//! assignment.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::{CUSTOMER, agent, customer_writes};

both_backends!(
    team_settings_are_read_by_all_and_written_by_the_owner_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("settings_owner").await;
        let (_, helper) = agent(&app, &owner, "settings-agent").await;
        for path in ["/identity/users/profile", "/api/users/profile"] {
            let (status, profile) = app.get(path, &helper.access).await;
            assert_eq!(status, 200, "{profile}");
            assert_eq!(profile["assignment_mode"], "manual");
            assert_eq!(profile["claim_timeout_minutes"], 0);
        }
        let change = json!({"assignment_mode": "round_robin", "claim_timeout_minutes": 30});
        let (status, error) = app
            .patch("/api/users/profile", change.clone(), &helper.access)
            .await;
        assert_eq!((status, &error["code"]), (403, &json!("forbidden")));
        let (status, profile) = app
            .patch("/identity/users/profile", change, &owner.access)
            .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["assignment_mode"], "round_robin");
        assert_eq!(profile["claim_timeout_minutes"], 30);
        let (status, profile) = app
            .patch(
                "/api/users/profile",
                json!({"claim_timeout_minutes": 0}),
                &owner.access,
            )
            .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["claim_timeout_minutes"], 0);
        assert_eq!(profile["assignment_mode"], "round_robin");

        for (body, field) in [
            (json!({"assignment_mode": "random"}), "assignment_mode"),
            (
                json!({"claim_timeout_minutes": 10081}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": -1}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": 1.5}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": "5"}),
                "claim_timeout_minutes",
            ),
        ] {
            let (status, error) = app
                .patch("/api/users/profile", body.clone(), &owner.access)
                .await;
            assert_eq!(status, 422, "{body}: {error}");
            assert!(
                error["detail"].as_str().expect("detail").contains(field),
                "{error}"
            );
        }
    }
);

/// Moves the conversations' last customer message and claim two minutes into the past.
async fn two_minutes_pass(app: &TestApp) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&app.settings.database_url())
        .await
        .expect("database");
    sqlx::query(
        "UPDATE contacts SET last_incoming_at = last_incoming_at - 120000, \
         assigned_at = assigned_at - 120000",
    )
    .execute(&mut conn)
    .await
    .expect("backdated");
}

both_backends!(
    a_claim_whose_customer_waited_past_the_timeout_goes_back_to_unassigned,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("timeouts").await;
        let owner = &biz.session.access;
        let (agent_id, helper) = agent(&app, &biz.session, "timeout-agent").await;
        let answered = "4915199999999";
        customer_writes(&app, &biz, "wamid.timeout-1").await;
        let mut message = text(answered, "wamid.timeout-2", "hi");
        message["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
        let envelope = inbound(&biz.phone_number_id, answered, "B", vec![message]);
        assert_eq!(app.webhook(&envelope, &biz.app_secret).await.0, 200);
        let (status, _) = app
            .patch(
                "/api/users/profile",
                json!({"claim_timeout_minutes": 1}),
                owner,
            )
            .await;
        assert_eq!(status, 200);
        for phone in [CUSTOMER, answered] {
            let (status, body) = app
                .patch(
                    &format!("/api/conversation/{phone}/assignment"),
                    json!({"assignee_id": agent_id, "claim": true}),
                    &helper.access,
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        let (status, body) = app
            .send_text(&helper.access, answered, "a-1", "On it")
            .await;
        assert!(status < 300, "{status} {body}");
        let mut ws = WsClient::connect(&app, owner).await;
        ws.subscribe("notifications/all").await;

        two_minutes_pass(&app).await;
        let released = loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "conversation_updated" {
                break frame;
            }
        };
        assert_eq!(released["data"]["phone_number"], CUSTOMER, "{released}");
        assert_eq!(released["data"]["reason"], "claim_timeout");
        assert_eq!(released["data"]["assignee"], serde_json::Value::Null);
        assert_eq!(released["data"]["by"], serde_json::Value::Null);
        // The answered conversation, swept in the same pass, keeps its agent.
        let (_, list) = app.get("/api/users?assignee=me", &helper.access).await;
        let phones: Vec<_> = list["data"]["users"]
            .as_array()
            .expect("users")
            .iter()
            .map(|row| row["phone_number"].clone())
            .collect();
        assert_eq!(phones, vec![json!(answered)]);
    }
);

/// A message from `phone`, now.
async fn writes(app: &TestApp, biz: &Business, phone: &str, id: &str) {
    let mut message = text(phone, id, "hi");
    message["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
    let envelope = inbound(&biz.phone_number_id, phone, "C", vec![message]);
    assert_eq!(app.webhook(&envelope, &biz.app_secret).await.0, 200);
}

/// The next `conversation_updated` a client sees.
async fn next_update(ws: &mut WsClient) -> serde_json::Value {
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == "conversation_updated" {
            return frame["data"].clone();
        }
    }
}

both_backends!(
    round_robin_gives_a_new_conversation_to_the_least_busy_connected_agent,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("round_robin").await;
        let owner = &biz.session.access;
        let (status, _) = app
            .patch(
                "/api/users/profile",
                json!({"assignment_mode": "round_robin"}),
                owner,
            )
            .await;
        assert_eq!(status, 200);
        let (first_id, first) = agent(&app, &biz.session, "rr-agent1").await;
        let (second_id, second) = agent(&app, &biz.session, "rr-agent2").await;
        let mut watcher = WsClient::connect(&app, owner).await;
        watcher.subscribe("notifications/all").await;
        let _first_online = WsClient::connect(&app, &first.access).await;

        // Only the first agent is online.
        writes(&app, &biz, "4915100000001", "wamid.rr-1").await;
        let update = next_update(&mut watcher).await;
        assert_eq!(update["phone_number"], "4915100000001", "{update}");
        assert_eq!(update["assignee"]["id"], first_id);
        assert_eq!(update["reason"], "round_robin");
        assert_eq!(update["by"], serde_json::Value::Null);

        // Both online: the one with fewer open conversations gets the next.
        let _second_online = WsClient::connect(&app, &second.access).await;
        writes(&app, &biz, "4915100000002", "wamid.rr-2").await;
        let update = next_update(&mut watcher).await;
        assert_eq!(update["phone_number"], "4915100000002", "{update}");
        assert_eq!(update["assignee"]["id"], second_id);

        // A conversation someone holds stays theirs when its customer writes again.
        writes(&app, &biz, "4915100000001", "wamid.rr-3").await;
        writes(&app, &biz, "4915100000003", "wamid.rr-4").await;
        let update = next_update(&mut watcher).await;
        assert_eq!(update["phone_number"], "4915100000003", "{update}");
    }
);

both_backends!(
    round_robin_ties_go_to_the_agent_longest_since_their_last_assignment_even_one_taken_back,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("rr_ties").await;
        let owner = &biz.session.access;
        let (first_id, first) = agent(&app, &biz.session, "rr-tie1").await;
        let (second_id, second) = agent(&app, &biz.session, "rr-tie2").await;
        writes(&app, &biz, "4915100000021", "wamid.rr-tie-1").await;
        writes(&app, &biz, "4915100000022", "wamid.rr-tie-2").await;
        let assign = |phone: &'static str, id: Option<String>| {
            let app = &app;
            async move {
                let path = format!("/api/conversation/{phone}/assignment");
                app.patch(&path, json!({"assignee_id": id}), owner).await
            }
        };
        // The second agent is given one first, then the first agent one, which is taken back;
        // the second agent's is resolved: neither has an open conversation.
        assert_eq!(
            assign("4915100000021", Some(second_id.clone())).await.0,
            200
        );
        // Apart by a few milliseconds, so the two assignments have different times.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert_eq!(assign("4915100000022", Some(first_id.clone())).await.0, 200);
        assert_eq!(assign("4915100000022", None).await.0, 200);
        let resolve = json!({"status": "resolved"});
        let path = "/api/conversation/4915100000021/status";
        assert_eq!(app.patch(path, resolve, owner).await.0, 200);

        let mode = json!({"assignment_mode": "round_robin"});
        assert_eq!(app.patch("/api/users/profile", mode, owner).await.0, 200);
        let mut watcher = WsClient::connect(&app, owner).await;
        watcher.subscribe("notifications/all").await;
        let _first_online = WsClient::connect(&app, &first.access).await;
        let _second_online = WsClient::connect(&app, &second.access).await;
        writes(&app, &biz, "4915100000023", "wamid.rr-tie-3").await;
        let update = next_update(&mut watcher).await;
        assert_eq!(update["phone_number"], "4915100000023", "{update}");
        assert_eq!(update["assignee"]["id"], second_id, "{update}");
    }
);
