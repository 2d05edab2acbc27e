//! Revocation at once: a deleted agent, a changed password or signing out everywhere ends the
//! user's access on the next request and closes their live sessions, on every node.

use reqwest::Method;
use serde_json::json;

use crate::both_backends;
use crate::cluster::two_nodes;
use crate::helpers::*;
use crate::live::*;
use crate::team::agent;

/// The agent's next API call is refused as revoked.
async fn assert_revoked(app: &TestApp, token: &str) {
    let (status, body) = app.get("/api/users?status=all", token).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["code"], "token_revoked", "{body}");
}

both_backends!(
    a_deleted_agent_is_refused_and_their_sessions_close,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("revoke_owner").await;
        let (agent_id, agent) = agent(&app, &owner, "revoked-agent").await;
        let (status, body) = app.get("/api/users?status=all", &agent.access).await;
        assert_eq!(status, 200, "{body}");
        let mut socket = WsClient::connect(&app, &agent.access).await;
        socket.subscribe("notifications/all").await;
        let mut stream = SseClient::open(
            &app,
            "/api/events/stream/notifications/all",
            &agent.access,
            None,
        )
        .await;

        let path = format!("/identity/users/agents/{agent_id}");
        let (status, body) = app
            .call(Method::DELETE, &path, None, Some(&owner.access))
            .await;
        assert_eq!(status, 200, "{body}");

        assert_revoked(&app, &agent.access).await;
        assert_eq!(socket.closed_reason().await, "session revoked");
        let closed = stream.next_event().await;
        assert_eq!(closed.name, "close", "{closed:?}");
        assert_eq!(closed.data, json!({"reason": "session revoked"}));
        // The owner's own access is untouched.
        let (status, _) = app.get("/api/users?status=all", &owner.access).await;
        assert_eq!(status, 200);
    }
);

both_backends!(
    a_new_password_refuses_old_tokens_and_the_new_login_works,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("repassword_owner").await;
        let (agent_id, agent) = agent(&app, &owner, "repassword-agent").await;
        let mut socket = WsClient::connect(&app, &agent.access).await;
        socket.subscribe("notifications/all").await;

        let path = format!("/identity/users/agents/{agent_id}");
        let (status, body) = app
            .call(
                Method::PATCH,
                &path,
                Some(json!({"password": "a brand new secret"})),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 200, "{body}");

        assert_revoked(&app, &agent.access).await;
        assert_eq!(socket.closed_reason().await, "session revoked");
        let (status, body) = app
            .post(
                "/identity/auth/refresh",
                json!({"refreshToken": agent.refresh}),
                None,
            )
            .await;
        assert_eq!(status, 401, "{body}");
        let (status, body) = app.login("repassword-agent", "a brand new secret").await;
        assert_eq!(status, 200, "{body}");
        let fresh = session_of(&body);
        let (status, body) = app.get("/api/users?status=all", &fresh.access).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    signing_out_everywhere_ends_every_session_of_the_caller_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("everywhere_owner").await;
        let (_, agent) = agent(&app, &owner, "everywhere-agent").await;
        let (status, body) = app.login("everywhere-agent", PASSWORD).await;
        assert_eq!(status, 200, "{body}");
        let other_device = session_of(&body);

        let (status, body) = app
            .post("/identity/auth/logout-all", json!({}), Some(&agent.access))
            .await;
        assert_eq!(status, 200, "{body}");

        assert_revoked(&app, &agent.access).await;
        assert_revoked(&app, &other_device.access).await;
        let (status, body) = app
            .post(
                "/identity/auth/refresh",
                json!({"refreshToken": other_device.refresh}),
                None,
            )
            .await;
        assert_eq!(status, 401, "{body}");
        let (status, _) = app.get("/api/users?status=all", &owner.access).await;
        assert_eq!(status, 200);
    }
);

#[actix_web::test]
async fn a_deletion_on_one_node_closes_the_session_on_another() {
    let (a, b) = two_nodes().await;
    let owner = a.register("revoke_two_nodes").await;
    let (agent_id, agent) = agent(&a, &owner, "two-node-revoked").await;
    // Node B has read the agent's version: its memory must learn of the deletion.
    let (status, body) = b.get("/api/users?status=all", &agent.access).await;
    assert_eq!(status, 200, "{body}");
    let mut on_b = WsClient::connect(&b, &agent.access).await;
    on_b.subscribe("notifications/all").await;

    let path = format!("/identity/users/agents/{agent_id}");
    let (status, body) = a
        .call(Method::DELETE, &path, None, Some(&owner.access))
        .await;
    assert_eq!(status, 200, "{body}");

    assert_eq!(on_b.closed_reason().await, "session revoked");
    assert_revoked(&b, &agent.access).await;
}

both_backends!(
    the_sandbox_inject_endpoint_checks_tokens_as_the_api_does,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("inject_revoked_owner").await;
        let inject = json!({"from": "16505550142", "name": "Ivy", "text": "Hello"});
        let (status, body) = app
            .post(
                "/sandbox/customers/inject",
                inject.clone(),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app
            .post("/identity/auth/logout-all", json!({}), Some(&owner.access))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app
            .post("/sandbox/customers/inject", inject, Some(&owner.access))
            .await;
        assert_eq!(status, 401, "{body}");
        assert_eq!(body["code"], "token_revoked", "{body}");

        // With another provider, a caller without a token hears that first; a signed-in one
        // hears that the sandbox is off.
        let (mut settings, dir) = test_settings(backend).await;
        settings.provider.kind = "cloud".into();
        let cloud = spawn_with(settings, dir).await;
        let other = cloud.register("inject_cloud_owner").await;
        let body = json!({"from": "16505550142", "text": "Hello"});
        let (status, answer) = cloud
            .post("/sandbox/customers/inject", body.clone(), None)
            .await;
        assert_eq!(status, 401, "{answer}");
        let (status, answer) = cloud
            .post("/sandbox/customers/inject", body, Some(&other.access))
            .await;
        assert_eq!(status, 404, "{answer}");
        assert_eq!(answer["message"], "The sandbox provider is not enabled");
    }
);
