//! Private notes: kept in the history for the team, never the customer's or the list's, pushed
//! live as private, `@username` mentions that reach only the mentioned agent's sessions, and
//! gone with a conversation deleted as one is written.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::identity::create_agent;
use crate::live::*;
use crate::team::{CUSTOMER, customer_writes, team};

fn notes_path() -> String {
    format!("/api/conversation/{CUSTOMER}/notes")
}

/// The `type` of each message of the customer's history, oldest first.
async fn history_kinds(app: &TestApp, token: &str) -> Vec<Value> {
    let (_, history) = app
        .get(&format!("/api/conversation/{CUSTOMER}"), token)
        .await;
    (history["messages"].as_array().expect("messages").iter())
        .map(|m| m["type"].clone())
        .collect()
}

both_backends!(
    a_note_is_kept_for_the_team_and_tells_the_mentioned_agent,
    |backend| async move {
        let t = team(spawn_app(backend).await, "noter").await;
        let owner = &t.biz.session.access;
        let (one_id, one) = &t.agents[0];
        let (_, two) = &t.agents[1];
        let channel = format!("{}_{CUSTOMER}", t.biz.phone_number_id);
        let mut watcher = WsClient::connect(&t.app, owner).await;
        watcher.subscribe(&channel).await;
        let mut mentioned = WsClient::connect(&t.app, &one.access).await;
        let mut other = WsClient::connect(&t.app, &two.access).await;
        other.subscribe("notifications/all").await;
        // Nobody may follow someone else's own channel.
        other
            .send(json!({"op": "subscribe", "channel": format!("user/{one_id}")}))
            .await;
        assert_eq!(other.next_frame().await["event"], "invalid_channel");

        let text = "Refund approved, @noter-agent1 please confirm (cc bob@example.com)";
        let (status, note) = t
            .app
            .post(&notes_path(), json!({"text": text}), Some(owner))
            .await;
        assert_eq!(status, 201, "{note}");
        assert_eq!(note["type"], "note");
        assert_eq!(note["direction"], "internal");
        assert_eq!(note["sender_name"], "Test noter");
        assert_eq!(note["content"], json!({"text": text, "mentions": [one_id]}));

        let live = watcher.next_frame().await;
        assert_eq!(live["event"], "new_message", "{live}");
        assert_eq!(live["data"]["private"], true);
        assert_eq!(live["data"]["message"]["message_id"], note["message_id"]);

        let mention = mentioned.next_frame().await;
        assert_eq!(mention["event"], "mention", "{mention}");
        assert_eq!(mention["data"]["conversation_id"], channel);
        assert_eq!(mention["data"]["note"]["message_id"], note["message_id"]);
        assert_eq!(mention["data"]["by"]["name"], "Test noter");

        // The next event the other agent sees is the next change, not the mention.
        let path = format!("/api/conversation/{CUSTOMER}/status");
        let (status, _) = t
            .app
            .call(
                reqwest::Method::PATCH,
                &path,
                Some(json!({"status": "pending"})),
                Some(owner),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(other.next_frame().await["event"], "conversation_updated");

        // In the history, but not the list's preview, and not unread.
        let kinds = history_kinds(&t.app, owner).await;
        assert_eq!(kinds, vec![json!("text"), json!("note"), json!("activity")]);
        let (_, list) = t.app.get("/api/users?status=all", owner).await;
        let row = &list["data"]["users"][0];
        assert_eq!(row["last_message_content"]["text"], "hello");
        assert_eq!(row["unread_count"], 1);
        // And never sent to the customer.
        assert!(t.app.sandbox_sent(&t.biz).await.is_empty());
    }
);

both_backends!(
    a_note_must_have_1_to_4096_characters,
    |backend| async move {
        let t = team(spawn_app(backend).await, "short_notes").await;
        let owner = &t.biz.session.access;
        for body in [
            json!({}),
            json!({"text": "  "}),
            // Nothing shows: zero-width and bidi characters alone are no note.
            json!({"text": "\u{200B}\u{2066} \u{FEFF}"}),
            json!({"text": "x".repeat(4097)}),
        ] {
            let (status, error) = t.app.post(&notes_path(), body, Some(owner)).await;
            assert_eq!(status, 422, "{error}");
            assert!(error["detail"].as_str().expect("detail").contains("text"));
        }
        let (status, _) = t
            .app
            .post(
                &notes_path(),
                json!({"text": "ü".repeat(4096)}),
                Some(owner),
            )
            .await;
        assert_eq!(status, 201);
        let (status, error) = t
            .app
            .post(
                "/api/conversation/4900000000/notes",
                json!({"text": "hi"}),
                Some(owner),
            )
            .await;
        assert_eq!((status, &error["code"]), (404, &json!("not_found")));
    }
);

both_backends!(
    a_note_written_as_its_conversation_is_deleted_does_not_outlive_it,
    |backend| async move {
        let t = team(spawn_app(backend).await, "note_delete").await;
        let owner = &t.biz.session.access;
        for round in 0..10 {
            customer_writes(&t.app, &t.biz, &format!("wamid.note-delete-{round}")).await;
            let deletion = format!("/api/contacts/delete/{CUSTOMER}");
            let notes = notes_path();
            let (noted, deleted) = futures_util::join!(
                t.app
                    .post(&notes, json!({"text": "follow up"}), Some(owner)),
                t.app
                    .call(reqwest::Method::DELETE, &deletion, None, Some(owner)),
            );
            assert!(noted.0 == 201 || noted.0 == 404, "round {round}: {noted:?}");
            assert_eq!(deleted.0, 200, "round {round}: {deleted:?}");
            // The customer writes again: a new conversation, with nothing of the deleted one.
            customer_writes(&t.app, &t.biz, &format!("wamid.note-delete-{round}-again")).await;
            let kinds = history_kinds(&t.app, owner).await;
            assert_eq!(kinds, vec![json!("text")], "round {round}");
            let (status, _) = t
                .app
                .call(reqwest::Method::DELETE, &deletion, None, Some(owner))
                .await;
            assert_eq!(status, 200);
        }
    }
);

both_backends!(
    a_mention_reaches_a_username_that_ends_in_a_dash_as_well_as_one_before_a_full_stop,
    |backend| async move {
        let t = team(spawn_app(backend).await, "dashes").await;
        let dash = create_agent(&t.app, &t.biz.session, "sam-").await;
        let (agent_id, _) = &t.agents[0];
        let text = "Over to @sam-, then to @dashes-agent1.";
        let owner = &t.biz.session.access;
        let (status, note) = (t.app)
            .post(&notes_path(), json!({"text": text}), Some(owner))
            .await;
        assert_eq!(status, 201, "{note}");
        let mut mentioned: Vec<&str> = (note["content"]["mentions"].as_array().expect("mentions"))
            .iter()
            .filter_map(Value::as_str)
            .collect();
        mentioned.sort_unstable();
        let mut expected = vec![dash.as_str(), agent_id.as_str()];
        expected.sort_unstable();
        assert_eq!(mentioned, expected);
    }
);

both_backends!(
    every_member_reads_the_team_they_can_mention,
    |backend| async move {
        let t = team(spawn_app(backend).await, "roster").await;
        let other = t.app.register("roster-elsewhere").await;
        let (_, agent) = &t.agents[0];
        for token in [&t.biz.session.access, &agent.access] {
            let (status, members) = t.app.get("/api/team/members", token).await;
            assert_eq!(status, 200, "{members}");
            let names: Vec<_> = (members.as_array().expect("members").iter())
                .map(|m| (m["username"].clone(), m["name"].clone(), m["role"].clone()))
                .collect();
            assert_eq!(
                names,
                vec![
                    (json!("roster"), json!("Test roster"), json!("admin")),
                    (
                        json!("roster-agent1"),
                        json!("Agent roster-agent1"),
                        json!("agent")
                    ),
                    (
                        json!("roster-agent2"),
                        json!("Agent roster-agent2"),
                        json!("agent")
                    ),
                ]
            );
        }
        let (status, members) = t.app.get("/api/team/members", &other.access).await;
        assert_eq!(status, 200, "{members}");
        assert_eq!(members.as_array().expect("members").len(), 1);
    }
);
