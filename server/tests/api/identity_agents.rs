//! Agents: the owner creates, edits and deletes them; tenant isolation; the health routes.

use reqwest::Method;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::identity::*;

both_backends!(
    the_owner_creates_lists_edits_and_deletes_agents,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("zoe").await;
        let (status, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!((status, list), (200, json!([])));

        let (status, agent) = app
            .post(
                "/identity/users/agents",
                json!({
                    "firstName": " Agent ",
                    "lastName": "Zoe",
                    "username": " Zoe Agent ",
                    "email": " ZoeAgent@Example.com ",
                    "password": PASSWORD,
                }),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 201, "{agent}");
        assert_eq!(agent["username"], "zoeagent");
        assert_eq!(agent["role"], "agent");
        assert_eq!(agent["firstName"], "Agent");
        assert_eq!(agent["email"], "zoeagent@example.com");
        assert!(agent.get("password_hash").is_none() && agent.get("password").is_none());
        let id = agent["_id"].as_str().expect("id").to_string();
        let second = create_agent(&app, &owner, "zoe-second").await;

        let (status, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(status, 200);
        let ids: Vec<&str> = list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|a| a["_id"].as_str())
            .collect();
        assert_eq!(ids, [id.as_str(), second.as_str()]);
        assert_eq!(list[0], agent);

        let (status, edited) = patch(
            &app,
            &format!("/identity/users/agents/{id}"),
            json!({"firstName": "Renamed", "lastName": "", "email": "Zoe.Agent@Example.com"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!(edited["firstName"], "Renamed");
        assert_eq!(edited["lastName"], "Zoe");
        assert_eq!(edited["email"], "zoe.agent@example.com");
        assert_eq!(edited["_id"], id);

        // A name taken by someone else is a 409.
        let (status, body) = patch(
            &app,
            &format!("/identity/users/agents/{id}"),
            json!({"username": "zoe-second"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");
        let (status, body) = app
            .post(
                "/identity/users/agents",
                agent_body("zoe", PASSWORD),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");
        let mut no_email = agent_body("newbie", PASSWORD);
        no_email.as_object_mut().expect("object").remove("email");
        let (status, body) = app
            .post("/identity/users/agents", no_email, Some(&owner.access))
            .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "email is required");

        let (status, body) =
            delete(&app, &format!("/identity/users/agents/{id}"), &owner.access).await;
        assert_eq!((status, body), (200, json!({"status": "success"})));
        let (_, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(list.as_array().map(Vec::len), Some(1));
        assert_eq!(app.login("zoeagent", PASSWORD).await.0, 401);
        let (status, body) =
            delete(&app, &format!("/identity/users/agents/{id}"), &owner.access).await;
        assert_eq!(status, 404);
        assert_error(&body, "not_found", "Agent not found");
    }
);

both_backends!(
    the_agent_signs_in_with_role_agent_in_the_owners_business,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("amber").await;
        // A business id in the form is ignored: an agent always joins the owner's business.
        let other = app.register("basil").await;
        let other_bid = claims_of(&app, &other.access)["bid"].clone();
        let mut body = agent_body("amber-agent", PASSWORD);
        body["businessId"] = other_bid.clone();
        body["bid"] = other_bid.clone();
        body["role"] = json!("admin");
        let (status, created) = app
            .post("/identity/users/agents", body, Some(&owner.access))
            .await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["role"], "agent");

        let (status, answer) = app.login("amber-agent@example.com", PASSWORD).await;
        assert_eq!(status, 200);
        assert_eq!(answer["role"], "agent");
        let agent = session_of(&answer);
        let claims = claims_of(&app, &agent.access);
        assert_eq!(claims["role"], "agent");
        assert_eq!(claims["bid"], claims_of(&app, &owner.access)["bid"]);
        assert_ne!(claims["bid"], other_bid);
        // Refresh keeps the role.
        let (status, body) = refresh(&app, &agent.refresh).await;
        assert_eq!(status, 200);
        assert_eq!(body["role"], "agent");
    }
);

both_backends!(
    an_empty_password_keeps_the_agents_old_one_and_a_new_one_replaces_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cyrus").await;
        let id = create_agent(&app, &owner, "cyrus-agent").await;
        let path = format!("/identity/users/agents/{id}");
        let before = login_session(&app, "cyrus-agent", PASSWORD).await;

        let (status, body) = patch(
            &app,
            &path,
            json!({"firstName": "Kept", "password": ""}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        login_session(&app, "cyrus-agent", PASSWORD).await;
        // Keeping the password keeps the sessions.
        assert_eq!(refresh(&app, &before.refresh).await.0, 200);

        let (status, body) = patch(&app, &path, json!({"password": "short"}), &owner.access).await;
        assert_eq!(status, 422);
        assert_error(
            &body,
            "validation_failed",
            "password must be at least 8 characters",
        );

        let after_keep = login_session(&app, "cyrus-agent", PASSWORD).await;
        let (status, _) = patch(
            &app,
            &path,
            json!({"password": "brand new password"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(app.login("cyrus-agent", PASSWORD).await.0, 401);
        let (status, body) = app.login("cyrus-agent", "brand new password").await;
        assert_eq!(status, 200);
        assert_eq!(body["role"], "agent");
        // A new password ends the sessions signed in with the old one.
        assert_eq!(refresh(&app, &after_keep.refresh).await.0, 401);
    }
);

both_backends!(
    an_agent_gets_403_on_every_agents_route,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("diana").await;
        let id = create_agent(&app, &owner, "diana-agent").await;
        let other_id = create_agent(&app, &owner, "diana-other").await;
        let agent = login_session(&app, "diana-agent", PASSWORD).await;

        let calls = [
            (Method::GET, "/identity/users/agents".to_string(), None),
            (
                Method::POST,
                "/identity/users/agents".to_string(),
                Some(agent_body("diana-third", PASSWORD)),
            ),
            (
                Method::PATCH,
                format!("/identity/users/agents/{other_id}"),
                Some(json!({"password": "taken over!"})),
            ),
            (
                Method::PATCH,
                format!("/identity/users/agents/{id}"),
                Some(json!({"firstName": "Self"})),
            ),
            (
                Method::DELETE,
                format!("/identity/users/agents/{other_id}"),
                None,
            ),
        ];
        for (method, path, body) in calls {
            let (status, answer) = app
                .call(method.clone(), &path, body, Some(&agent.access))
                .await;
            assert_eq!(status, 403, "{method} {path}: {answer}");
            assert_error(&answer, "forbidden", "Only the account owner can do this");
        }
        // Nothing changed.
        let (_, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(list.as_array().map(Vec::len), Some(2));
        assert_eq!(app.login("diana-other", PASSWORD).await.0, 200);
        assert_eq!(app.login("diana-third", PASSWORD).await.0, 401);
    }
);

// --- tenant isolation -----------------------------------------------------------------------

both_backends!(
    an_owner_cannot_read_change_or_delete_another_businesss_agents,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("ellen").await;
        let beta = app.register("felix").await;
        let alpha_agent = create_agent(&app, &alpha, "ellen-agent").await;
        let beta_agent = create_agent(&app, &beta, "felix-agent").await;
        let beta_owner_id = claims_of(&app, &beta.access)["sub"]
            .as_str()
            .expect("sub")
            .to_string();

        let (_, alpha_list) = app.get("/identity/users/agents", &alpha.access).await;
        let alpha_ids: Vec<&str> = alpha_list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|a| a["_id"].as_str())
            .collect();
        assert_eq!(alpha_ids, [alpha_agent.as_str()]);

        for target in [&beta_agent, &beta_owner_id] {
            let path = format!("/identity/users/agents/{target}");
            let (status, body) = patch(
                &app,
                &path,
                json!({"password": "hijacked password", "email": "mine@example.com"}),
                &alpha.access,
            )
            .await;
            assert_eq!(status, 404, "{body}");
            assert_error(&body, "not_found", "Agent not found");
            let (status, body) = delete(&app, &path, &alpha.access).await;
            assert_eq!(status, 404, "{body}");
            assert_error(&body, "not_found", "Agent not found");
        }
        // An owner cannot edit or delete themself through the agents routes either.
        let alpha_id = claims_of(&app, &alpha.access)["sub"].clone();
        let own = format!("/identity/users/agents/{}", alpha_id.as_str().expect("sub"));
        assert_eq!(delete(&app, &own, &alpha.access).await.0, 404);

        // Beta's people are untouched.
        assert_eq!(app.login("felix-agent", PASSWORD).await.0, 200);
        assert_eq!(app.login("felix", PASSWORD).await.0, 200);
        let (_, beta_list) = app.get("/identity/users/agents", &beta.access).await;
        assert_eq!(beta_list[0]["_id"], beta_agent.as_str());
        assert_eq!(beta_list[0]["email"], "felix-agent@example.com");
    }
);

both_backends!(
    profile_calls_never_show_or_change_another_businesss_data,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("gina").await;
        let beta = app.register("hugo").await;
        let (_, beta_before) = app.get("/identity/users/profile", &beta.access).await;

        let (status, alpha_profile) = patch(
            &app,
            "/identity/users/profile",
            json!({"firstName": "Gina", "accessToken": "alpha-token"}),
            &alpha.access,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(alpha_profile["username"], "gina");
        let alpha_text = alpha_profile.to_string();
        for field in CREDENTIAL_FIELDS {
            let theirs = beta_before[field].as_str().expect("credential");
            assert!(!alpha_text.contains(theirs), "{field} of beta leaked");
        }
        assert!(!alpha_text.contains("hugo"));
        let (_, beta_after) = app.get("/identity/users/profile", &beta.access).await;
        assert_eq!(beta_after, beta_before);
        let (_, alpha_user) = app.get("/api/users/profile", &alpha.access).await;
        assert_eq!(alpha_user["username"], "gina");
    }
);

both_backends!(
    an_agent_signs_in_with_the_password_as_the_owner_typed_it_spaces_included,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("ines").await;
        let typed = " correct horse ";
        let (status, agent) = app
            .post(
                "/identity/users/agents",
                agent_body("ines-agent", typed),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 201, "{agent}");
        assert_eq!(app.login("ines-agent", typed).await.0, 200);
        assert_eq!(app.login("ines-agent", typed.trim()).await.0, 401);

        let retyped = "  battery staple";
        let id = agent["_id"].as_str().expect("id");
        let path = format!("/identity/users/agents/{id}");
        let (status, body) = patch(&app, &path, json!({"password": retyped}), &owner.access).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(app.login("ines-agent", retyped).await.0, 200);
        // A blank password still keeps the one there is.
        let (status, body) = patch(&app, &path, json!({"password": "   "}), &owner.access).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(app.login("ines-agent", retyped).await.0, 200);
    }
);

// --- health ---------------------------------------------------------------------------------

both_backends!(
    health_head_answers_200_with_an_empty_body_and_get_reports_the_database,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .head(app.url("/api/health"))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 200);
        assert!(response.bytes().await.expect("body").is_empty());

        let (status, body) = app.call(Method::GET, "/api/health", None, None).await;
        assert_eq!(status, 200);
        let expected_backend = match backend {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        };
        assert_eq!(
            body,
            json!({"status": "ok", "database": "reachable", "backend": expected_backend})
        );
    }
);
