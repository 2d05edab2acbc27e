//! Limits at the door: names, usernames, emails and passwords at sign-up and for agents, the
//! registration throttle, the Cloud API's text limits when a reply is saved, and webhook
//! messages whose sender or body is odd.

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";

/// An app that lets one address register `registrations` times.
async fn app_allowing(backend: Backend, registrations: u32) -> TestApp {
    let (mut settings, data_dir) = test_settings(backend).await;
    settings.auth.max_registrations_per_address = registrations;
    spawn_with(settings, data_dir).await
}

fn sign_up(first: &str, username: &str, email: &str, password: &str) -> Value {
    json!({"firstName": first, "lastName": "Lee", "username": username, "email": email,
           "password": password})
}

async fn register(app: &TestApp, body: Value) -> (u16, Value) {
    app.post("/identity/auth/register", body, None).await
}

fn assert_refused(status: u16, body: &Value, detail: &str) {
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "validation_failed", "{body}");
    assert_eq!(body["detail"], detail, "{body}");
    assert_eq!(body["message"], detail, "{body}");
}

const HIDDEN: &str = "username must not contain invisible or direction-changing characters";

both_backends!(
    sign_up_refuses_long_names_odd_usernames_and_bad_emails_naming_the_field,
    |backend| async move {
        let app = app_allowing(backend, 100).await;
        let long = "n".repeat(101);
        let (status, body) =
            register(&app, sign_up(&long, "ann", "ann@example.com", PASSWORD)).await;
        assert_refused(status, &body, "firstName must be at most 100 characters");
        let refused = [
            ("ann\u{202E}lee", HIDDEN),
            ("ann\u{2066}lee", HIDDEN),
            ("ann\u{200B}lee", HIDDEN),
            ("ann\u{FEFF}", HIDDEN),
            ("an", "username must be 3 to 32 characters"),
            (&"a".repeat(33), "username must be 3 to 32 characters"),
            (
                "ann!lee",
                "username may only contain letters a-z, digits, '.', '_' and '-'",
            ),
            (
                "annë",
                "username may only contain letters a-z, digits, '.', '_' and '-'",
            ),
        ];
        for (username, detail) in refused {
            let (status, body) =
                register(&app, sign_up("Ann", username, "ann@example.com", PASSWORD)).await;
            assert_refused(status, &body, detail);
        }
        let (status, body) = register(
            &app,
            sign_up("Ann\u{202E}", "ann", "ann@example.com", PASSWORD),
        )
        .await;
        assert_refused(
            status,
            &body,
            "firstName must not contain invisible or direction-changing characters",
        );
        for email in [
            "ann@localhost",
            "ann@@example.com",
            "Ann <ann@example.com>",
            "ann.example.com",
        ] {
            let (status, body) = register(&app, sign_up("Ann", "ann", email, PASSWORD)).await;
            assert_refused(status, &body, "email is not a valid email address");
        }

        // Upper case is lower-cased, and the longest name is kept whole.
        let (status, body) = register(
            &app,
            sign_up(&"n".repeat(100), "Ann.Lee_1-x", "Ann@Example.com", PASSWORD),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        let (status, body) = app.login("ANN.LEE_1-X", PASSWORD).await;
        assert_eq!(status, 200, "{body}");
        let (_, profile) = app
            .get(
                "/identity/users/profile",
                body["accessToken"].as_str().expect("token"),
            )
            .await;
        assert_eq!(profile["username"], "ann.lee_1-x");
        assert_eq!(profile["firstName"], "n".repeat(100));
    }
);

both_backends!(
    agents_and_contacts_are_held_to_the_same_name_rules,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("nameowner").await;
        let agent = |first: &str, username: &str| {
            json!({"firstName": first, "lastName": "Agent", "username": username,
                   "email": "ada@example.com", "password": PASSWORD})
        };
        let (status, body) = app
            .post(
                "/identity/users/agents",
                agent(&"a".repeat(101), "agentone"),
                Some(&owner.access),
            )
            .await;
        assert_refused(status, &body, "firstName must be at most 100 characters");
        let (status, body) = app
            .post(
                "/identity/users/agents",
                agent("Ada", "agent\u{200D}one"),
                Some(&owner.access),
            )
            .await;
        assert_refused(status, &body, HIDDEN);
        let (status, created) = app
            .post(
                "/identity/users/agents",
                agent("Ada", "AgentOne"),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["username"], "agentone");
        let path = format!(
            "/identity/users/agents/{}",
            created["_id"].as_str().expect("id")
        );
        let (status, body) = app
            .call(
                Method::PATCH,
                &path,
                Some(json!({"lastName": "x\u{2069}"})),
                Some(&owner.access),
            )
            .await;
        assert_refused(
            status,
            &body,
            "lastName must not contain invisible or direction-changing characters",
        );

        let (status, body) = app
            .post(
                "/api/contacts/add",
                json!({"name": "c".repeat(101), "phone_number": CUSTOMER}),
                Some(&owner.access),
            )
            .await;
        assert_refused(status, &body, "name must be at most 100 characters");
    }
);

both_backends!(
    passwords_must_be_uncommon_and_not_the_account_s_own_names,
    |backend| async move {
        let app = app_allowing(backend, 100).await;
        let (status, body) =
            register(&app, sign_up("Pat", "pat", "pat@example.com", "Password1")).await;
        assert_refused(
            status,
            &body,
            "password is one of the most common passwords; choose another",
        );
        let (status, body) = register(
            &app,
            sign_up("Pat", "quietriver42", "pat@example.com", "QuietRiver42"),
        )
        .await;
        assert_refused(
            status,
            &body,
            "password must not be the username or the email",
        );
        let (status, body) = register(
            &app,
            sign_up("Pat", "pat", "pat@example.com", "PAT@example.com"),
        )
        .await;
        assert_refused(
            status,
            &body,
            "password must not be the username or the email",
        );
        let (status, body) =
            register(&app, sign_up("Pat", "pat", "pat@example.com", "short")).await;
        assert_refused(status, &body, "password must be at least 8 characters");

        let owner = app.register("patowner").await;
        let agent = json!({"firstName": "Al", "lastName": "Agent", "username": "alagent",
                           "email": "al@example.com", "password": "qwertyuiop"});
        let (status, body) = app
            .post("/identity/users/agents", agent, Some(&owner.access))
            .await;
        assert_refused(
            status,
            &body,
            "password is one of the most common passwords; choose another",
        );
        let agent = json!({"firstName": "Al", "lastName": "Agent", "username": "alagent",
                           "email": "al@example.com", "password": PASSWORD});
        let (status, created) = app
            .post("/identity/users/agents", agent, Some(&owner.access))
            .await;
        assert_eq!(status, 201, "{created}");
        let path = format!(
            "/identity/users/agents/{}",
            created["_id"].as_str().expect("id")
        );
        let (status, body) = app
            .call(
                Method::PATCH,
                &path,
                Some(json!({"password": "AL@Example.com"})),
                Some(&owner.access),
            )
            .await;
        assert_refused(
            status,
            &body,
            "password must not be the username or the email",
        );
        // Against the username the agent is given in the same change.
        let change = json!({"username": "alagent2", "password": "alagent2"});
        let (status, body) = app
            .call(Method::PATCH, &path, Some(change), Some(&owner.access))
            .await;
        assert_refused(
            status,
            &body,
            "password must not be the username or the email",
        );
    }
);

both_backends!(
    registration_is_throttled_per_client_address,
    |backend| async move {
        let app = app_allowing(backend, 3).await;
        app.register("first").await;
        // An attempt refused for a name already taken counts too; a malformed one does not.
        let (status, _) = register(&app, sign_up("Bo", "first", "bo@example.com", PASSWORD)).await;
        assert_eq!(status, 409);
        let (status, _) = register(&app, sign_up("Bo", "b", "b@example.com", PASSWORD)).await;
        assert_eq!(status, 422);
        app.register("third").await;
        let response = app
            .client
            .post(app.url("/identity/auth/register"))
            .json(&sign_up("Bo", "fourth", "fourth@example.com", PASSWORD))
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status().as_u16(), 429);
        let retry_after: u64 = response
            .headers()
            .get("Retry-After")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .expect("Retry-After");
        assert!(retry_after >= 1);
        let body: Value = response.json().await.expect("json");
        assert_eq!(body["code"], "too_many_requests", "{body}");
        assert_eq!(
            body["detail"],
            format!("Too many attempts; try again in {retry_after} seconds")
        );
        // Signing in is not registering.
        let (status, _) = app.login("first", PASSWORD).await;
        assert_eq!(status, 200);
    }
);

fn reply(fields: &[(&str, &str)]) -> reqwest::multipart::Form {
    fields
        .iter()
        .fold(reqwest::multipart::Form::new(), |form, (name, value)| {
            form.text(name.to_string(), value.to_string())
        })
}

both_backends!(
    reply_texts_are_held_to_the_cloud_api_limits_when_saved,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("limitedreplies").await;
        let save = |fields: Vec<(&'static str, String)>| {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.post_form("/api/automated-replies/", &owner.access, reply(&fields))
        };
        let (status, body) = save(vec![
            ("trigger", "long".into()),
            ("responseText", "t".repeat(4097)),
        ])
        .await;
        assert_refused(
            status,
            &body,
            "Response text must be at most 4096 characters",
        );
        let (status, body) = save(vec![
            ("trigger", "caption".into()),
            ("responseText", "see below".into()),
            ("caption", "c".repeat(1025)),
        ])
        .await;
        assert_refused(status, &body, "Caption must be at most 1024 characters");
        let (status, body) = save(vec![
            ("trigger", "buttons".into()),
            ("responseText", "pick".into()),
            (
                "quickReplyButtons",
                json!([{"id": "a", "title": "t".repeat(21)}]).to_string(),
            ),
        ])
        .await;
        assert_refused(
            status,
            &body,
            &format!(
                "Quick reply button \"{}\" must be at most 20 characters",
                "t".repeat(21)
            ),
        );
        let (status, body) = save(vec![
            ("trigger", "bodied".into()),
            ("responseText", "b".repeat(1025)),
            (
                "quickReplyButtons",
                json!([{"id": "a", "title": "A"}]).to_string(),
            ),
        ])
        .await;
        assert_refused(
            status,
            &body,
            "Response text with quick reply buttons must be at most 1024 characters",
        );
        let (status, body) = save(vec![
            ("trigger", "flow".into()),
            ("responseText", "pick".into()),
            (
                "quickReplyButtons",
                json!([{"id": "next", "title": "Next"}]).to_string(),
            ),
            (
                "flow_definitions",
                json!({"next": {"responseText": "s".repeat(4097)}}).to_string(),
            ),
        ])
        .await;
        assert_refused(
            status,
            &body,
            "Flow step \"next\": Response text must be at most 4096 characters",
        );

        let (status, body) = save(vec![
            ("trigger", "longest".into()),
            ("responseText", "t".repeat(4096)),
            ("caption", "c".repeat(1024)),
        ])
        .await;
        assert_eq!(status, 201, "{body}");
        let (_, list) = app.get("/api/automated-replies/", &owner.access).await;
        assert_eq!(
            list.as_array().map(Vec::len),
            Some(1),
            "only the valid reply is stored"
        );
    }
);

both_backends!(
    a_message_from_neither_a_phone_nor_a_bsuid_is_skipped_and_a_numeric_body_kept_as_text,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("oddsenders").await;
        let messages = vec![
            text("alice-at-home", "wamid.nobody", "from no phone"),
            text(CUSTOMER, "wamid.sibling", "kept"),
            json!({"from": CUSTOMER, "id": "wamid.number", "timestamp": "1763700001",
                   "type": "text", "text": {"body": 12345}}),
        ];
        let delivery = inbound(&biz.phone_number_id, CUSTOMER, "Odd", messages);
        let (status, body) = app.webhook(&delivery, &biz.app_secret).await;
        assert_eq!((status, body), (200, json!({"status": "success"})));

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        let ids: Vec<&str> = stored
            .iter()
            .filter_map(|m| m["message_id"].as_str())
            .collect();
        assert_eq!(stored.len(), 2, "{ids:?}");
        let by_id = |id: &str| stored.iter().find(|m| m["message_id"] == id).expect(id);
        assert_eq!(by_id("wamid.sibling")["content"]["text"], "kept");
        assert_eq!(by_id("wamid.number")["content"]["text"], "12345");
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        assert_eq!(
            list["data"]["users"].as_array().map(Vec::len),
            Some(1),
            "{list}"
        );
    }
);
