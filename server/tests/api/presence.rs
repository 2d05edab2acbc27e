//! Who is here: presence over the WebSocket reaches the other sessions following the
//! conversation (never the sender's own), a closed session turns idle, and SSE clients post
//! theirs over HTTP (about a conversation of their business only).

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::{CUSTOMER, team};

both_backends!(
    presence_reaches_the_others_following_the_conversation_and_ends_with_the_session,
    |backend| async move {
        let t = team(spawn_app(backend).await, "present").await;
        let (one_id, one) = &t.agents[0];
        let (two_id, two) = &t.agents[1];
        let channel = format!("{}_{CUSTOMER}", t.biz.phone_number_id);
        let mut first = WsClient::connect(&t.app, &one.access).await;
        first.subscribe(&channel).await;
        let mut second = WsClient::connect(&t.app, &two.access).await;
        second.subscribe(&channel).await;

        first
            .send(json!({"op": "presence", "channel": channel, "state": "typing"}))
            .await;
        let seen = second.next_frame().await;
        assert_eq!(seen["event"], "agent_activity", "{seen}");
        assert_eq!(
            seen["data"],
            json!({"conversation_id": channel, "user_id": one_id,
                   "name": "Agent present-agent1", "state": "typing"})
        );
        assert_eq!(seen["seq"], 0);

        // The sender's next frame is the other's presence, not its own echo.
        second
            .send(json!({"op": "presence", "channel": channel, "state": "viewing"}))
            .await;
        let seen = first.next_frame().await;
        assert_eq!(seen["data"]["user_id"], *two_id, "{seen}");
        assert_eq!(seen["data"]["state"], "viewing");

        first
            .send(json!({"op": "presence", "channel": channel, "state": "dancing"}))
            .await;
        assert_eq!(first.next_frame().await["event"], "invalid_op");

        // A session that closes is idle for the others.
        assert!(first.close_cleanly().await);
        let seen = second.next_frame().await;
        assert_eq!(seen["data"]["user_id"], *one_id, "{seen}");
        assert_eq!(seen["data"]["state"], "idle");
    }
);

both_backends!(
    an_sse_client_posts_its_presence_over_http,
    |backend| async move {
        let t = team(spawn_app(backend).await, "sse_present").await;
        let (one_id, one) = &t.agents[0];
        let (_, two) = &t.agents[1];
        let channel = format!("{}_{CUSTOMER}", t.biz.phone_number_id);
        let mut watcher = SseClient::open(
            &t.app,
            &format!("/api/events/stream/{channel}"),
            &two.access,
            None,
        )
        .await;
        let path = format!("/api/conversation/{CUSTOMER}/presence");
        let (status, _body) = t
            .app
            .post(&path, json!({"state": "viewing"}), Some(&one.access))
            .await;
        assert_eq!(status, 204, "{_body}");
        let seen = watcher.next_event().await;
        assert_eq!(seen.name, "agent_activity");
        assert_eq!(seen.data["user_id"], *one_id);
        assert_eq!(seen.data["state"], "viewing");
        let (status, error) = t
            .app
            .post(&path, json!({"state": "away"}), Some(&one.access))
            .await;
        assert_eq!(status, 422, "{error}");
        assert!(error["detail"].as_str().expect("detail").contains("state"));
        // A conversation the business does not have, another business's included: 404.
        let other = t.app.business("sse_present_other").await;
        for phone in [CUSTOMER, "4915100000000"] {
            let path = format!("/api/conversation/{phone}/presence");
            let token = match phone {
                CUSTOMER => &other.session.access,
                _ => &one.access,
            };
            let (status, error) = t
                .app
                .post(&path, json!({"state": "typing"}), Some(token))
                .await;
            assert_eq!(
                (status, &error["code"]),
                (404, &json!("not_found")),
                "{error}"
            );
        }
    }
);
