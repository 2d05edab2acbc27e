//! Team changes racing each other: a conversation assigned to an agent while the owner removes
//! that agent never stays with someone who is gone; an assignment racing an unassignment is
//! logged as it ends; two members setting the status it already has (or the same one at once)
//! log it once.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::{CUSTOMER, agent, team};

both_backends!(
    a_conversation_assigned_while_its_agent_is_removed_is_left_unassigned,
    |backend| async move {
        let t = team(spawn_app(backend).await, "gone_race").await;
        let owner = &t.biz.session.access;
        let path = format!("/api/conversation/{CUSTOMER}/assignment");
        for round in 0..12 {
            let (id, _) = agent(&t.app, &t.biz.session, &format!("gone-race{round}")).await;
            let removal = format!("/identity/users/agents/{id}");
            let (assigned, removed) = futures_util::join!(
                t.app.patch(&path, json!({"assignee_id": id}), owner),
                t.app.delete(&removal, owner),
            );
            assert!(
                assigned.0 == 200 || assigned.0 == 422,
                "round {round}: {assigned:?}"
            );
            assert_eq!(removed.0, 200, "round {round}: {removed:?}");
            let (status, list) = t.app.get("/api/users?status=all", owner).await;
            assert_eq!(status, 200, "{list}");
            let row = &list["data"]["users"][0];
            assert_eq!(row["assignee"], Value::Null, "round {round}: {row}");
        }
    }
);

both_backends!(
    a_new_conversation_is_never_given_by_round_robin_to_an_agent_being_removed,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("rr_race").await;
        let owner = &biz.session.access;
        let mode = json!({"assignment_mode": "round_robin"});
        assert_eq!(app.patch("/api/users/profile", mode, owner).await.0, 200);
        for round in 0..12 {
            let (id, session) = agent(&app, &biz.session, &format!("rr-race{round}")).await;
            // Online, so round robin counts them.
            let _online = WsClient::connect(&app, &session.access).await;
            // Ten new customers at once: ten round-robin assignments around the removal.
            let phones: Vec<String> = (0..10)
                .map(|n| format!("4915100002{round:02}{n}"))
                .collect();
            let messages = phones
                .iter()
                .map(|phone| {
                    let mut message = text(phone, &format!("wamid.rr-race-{phone}"), "hi");
                    message["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
                    inbound(&biz.phone_number_id, phone, "C", vec![message])
                })
                .collect::<Vec<_>>();
            let removal = format!("/identity/users/agents/{id}");
            let (written, removed) = futures_util::join!(
                futures_util::future::join_all(
                    messages.iter().map(|m| app.webhook(m, &biz.app_secret))
                ),
                app.delete(&removal, owner),
            );
            assert!(
                written.iter().all(|w| w.0 == 200),
                "round {round}: {written:?}"
            );
            assert_eq!(removed.0, 200, "round {round}: {removed:?}");
            // Round robin runs after the webhooks' answers: any moment later, no conversation is
            // held by the removed agent.
            for _ in 0..5 {
                let (status, list) = app.get("/api/users?status=all&limit=100", owner).await;
                assert_eq!(status, 200, "{list}");
                let rows = list["data"]["users"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                for row in &rows {
                    assert_ne!(row["assignee"]["id"], json!(id), "round {round}: {row}");
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }
);

both_backends!(
    an_assignment_racing_an_unassignment_is_logged_as_it_ends,
    |backend| async move {
        let t = team(spawn_app(backend).await, "flip_race").await;
        let owner = &t.biz.session.access;
        let (one_id, one) = &t.agents[0];
        let path = format!("/api/conversation/{CUSTOMER}/assignment");
        let history = format!("/api/conversation/{CUSTOMER}?limit=100");
        for round in 0..20 {
            let (status, _) = t
                .app
                .patch(&path, json!({"assignee_id": one_id}), owner)
                .await;
            assert_eq!(status, 200, "round {round}");
            // The agent takes it again while the owner lets it go: whichever wins, the history's
            // last entry says who holds it now.
            let (kept, freed) = futures_util::join!(
                t.app
                    .patch(&path, json!({"assignee_id": one_id}), &one.access),
                t.app.patch(&path, json!({"assignee_id": null}), owner),
            );
            assert_eq!((kept.0, freed.0), (200, 200), "round {round}");
            let (status, body) = t.app.get(&history, owner).await;
            assert_eq!(status, 200, "{body}");
            let last = body["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .rev()
                .find(|m| m["type"] == "activity")
                .expect("an activity entry")["content"]["activity"]
                .clone();
            let holder = &body["conversation"]["assignee"];
            assert_eq!(last["assignee"], *holder, "round {round}: {last}");
        }
    }
);

both_backends!(
    a_status_set_again_or_by_two_members_at_once_is_logged_once,
    |backend| async move {
        let t = team(spawn_app(backend).await, "same_status").await;
        let owner = &t.biz.session.access;
        let (_, one) = &t.agents[0];
        let path = format!("/api/conversation/{CUSTOMER}/status");
        let resolve = json!({"status": "resolved"});
        let mut ws = WsClient::connect(&t.app, owner).await;
        ws.subscribe("notifications/all").await;
        let (first, second) = futures_util::join!(
            t.app.patch(&path, resolve.clone(), owner),
            t.app.patch(&path, resolve.clone(), &one.access),
        );
        assert_eq!((first.0, second.0), (200, 200), "{first:?} {second:?}");
        let (status, row) = t.app.patch(&path, resolve.clone(), owner).await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["status"], "resolved");
        // A snooze to another time is a change; to the same time again it is none.
        let until = json!({"status": "snoozed", "snoozed_until": "2999-01-01T00:00:00Z"});
        let later = json!({"status": "snoozed", "snoozed_until": "2999-01-02T00:00:00Z"});
        for body in [&until, &until, &later] {
            let (status, row) = t.app.patch(&path, body.clone(), owner).await;
            assert_eq!(status, 200, "{row}");
        }
        let (status, body) = t
            .app
            .get(&format!("/api/conversation/{CUSTOMER}?limit=100"), owner)
            .await;
        assert_eq!(status, 200, "{body}");
        let logged: Vec<Value> = body["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .filter(|m| m["type"] == "activity")
            .map(|m| m["content"]["activity"]["snoozed_until"].clone())
            .collect();
        assert_eq!(
            logged,
            [
                Value::Null,
                json!("2999-01-01T00:00:00.000Z"),
                json!("2999-01-02T00:00:00.000Z")
            ]
        );
        // One event per change: the next one after the three is the last snooze's.
        let mut updates = Vec::new();
        while updates.len() < 3 {
            let frame = ws.next_frame().await;
            if frame["event"] == "conversation_updated" {
                updates.push(frame["data"]["snoozed_until"].clone());
            }
        }
        assert_eq!(updates, logged);
    }
);
