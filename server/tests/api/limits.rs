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

fn assert_refused((status, body): (u16, Value), detail: &str) {
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "validation_failed", "{body}");
    assert_eq!(body["detail"], detail, "{body}");
    assert_eq!(body["message"], detail, "{body}");
}

const HIDDEN: &str = "username must not contain invisible or direction-changing characters";
const ALPHABET: &str = "username may only contain letters a-z, digits, '.', '_' and '-'";
const LENGTH: &str = "username must be 3 to 32 characters";

both_backends!(
    sign_up_refuses_long_names_odd_usernames_and_bad_emails_naming_the_field,
    |backend| async move {
        let app = app_allowing(backend, 100).await;
        let long = "n".repeat(101);
        assert_refused(
            register(&app, sign_up(&long, "ann", "ann@example.com", PASSWORD)).await,
            "firstName must be at most 100 characters",
        );
        let refused = [
            ("ann\u{202E}lee", HIDDEN),
            ("ann\u{2066}lee", HIDDEN),
            ("ann\u{200B}lee", HIDDEN),
            ("ann\u{FEFF}", HIDDEN),
            ("ann\u{200F}lee", HIDDEN),
            ("an", LENGTH),
            (&"a".repeat(33), LENGTH),
            ("ann!lee", ALPHABET),
            ("annë", ALPHABET),
        ];
        for (username, detail) in refused {
            assert_refused(
                register(&app, sign_up("Ann", username, "ann@example.com", PASSWORD)).await,
                detail,
            );
        }
        for (first_name, detail) in [
            (
                "Ann\u{202E}",
                "firstName must not contain invisible or direction-changing characters",
            ),
            (
                "Ann\u{200E}Lee",
                "firstName must not contain invisible or direction-changing characters",
            ),
            (
                "Ann\u{2028}Lee",
                "firstName must not contain control characters",
            ),
        ] {
            assert_refused(
                register(
                    &app,
                    sign_up(first_name, "ann", "ann@example.com", PASSWORD),
                )
                .await,
                detail,
            );
        }
        let emails = [
            "ann@localhost",
            "ann@@example.com",
            "A <a@example.com>",
            "a.example.com",
        ];
        for email in emails {
            assert_refused(
                register(&app, sign_up("Ann", "ann", email, PASSWORD)).await,
                "email is not a valid email address",
            );
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
        assert_refused(
            app.post(
                "/identity/users/agents",
                agent(&"a".repeat(101), "agentone"),
                Some(&owner.access),
            )
            .await,
            "firstName must be at most 100 characters",
        );
        assert_refused(
            app.post(
                "/identity/users/agents",
                agent("Ada", "agent\u{200D}one"),
                Some(&owner.access),
            )
            .await,
            HIDDEN,
        );
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
        assert_refused(
            app.call(
                Method::PATCH,
                &path,
                Some(json!({"lastName": "x\u{2069}"})),
                Some(&owner.access),
            )
            .await,
            "lastName must not contain invisible or direction-changing characters",
        );

        assert_refused(
            app.post(
                "/api/contacts/add",
                json!({"name": "c".repeat(101), "phone_number": CUSTOMER}),
                Some(&owner.access),
            )
            .await,
            "name must be at most 100 characters",
        );
        // A joiner where writing needs one is part of the name.
        let joined = "Sara 👩\u{200D}💻 محمد\u{200C}رضا";
        let (status, added) = app
            .post(
                "/api/contacts/add",
                json!({"name": joined, "phone_number": CUSTOMER}),
                Some(&owner.access),
            )
            .await;
        assert!(status < 300, "{status} {added}");
        assert_eq!(added["name"], joined, "{added}");
    }
);

both_backends!(
    passwords_must_be_uncommon_and_not_the_account_s_own_names,
    |backend| async move {
        let app = app_allowing(backend, 100).await;
        let common = "password is one of the most common passwords; choose another";
        let own = "password must not be the username or the email";
        assert_refused(
            register(&app, sign_up("Pat", "pat", "pat@example.com", "Password1")).await,
            common,
        );
        assert_refused(
            register(
                &app,
                sign_up("Pat", "quietriver42", "pat@example.com", "QuietRiver42"),
            )
            .await,
            own,
        );
        assert_refused(
            register(
                &app,
                sign_up("Pat", "pat", "pat@example.com", "PAT@example.com"),
            )
            .await,
            own,
        );
        assert_refused(
            register(&app, sign_up("Pat", "pat", "pat@example.com", "short")).await,
            "password must be at least 8 characters",
        );

        let owner = app.register("patowner").await;
        let agent = json!({"firstName": "Al", "lastName": "Agent", "username": "alagent",
                           "email": "al@example.com", "password": "qwertyuiop"});
        assert_refused(
            app.post("/identity/users/agents", agent, Some(&owner.access))
                .await,
            common,
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
        assert_refused(
            app.call(
                Method::PATCH,
                &path,
                Some(json!({"password": "AL@Example.com"})),
                Some(&owner.access),
            )
            .await,
            own,
        );
        // Against the username the agent is given in the same change.
        let change = json!({"username": "alagent2", "password": "alagent2"});
        assert_refused(
            app.call(Method::PATCH, &path, Some(change), Some(&owner.access))
                .await,
            own,
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

/// A reply form from a JSON object: strings as they are, lists and objects as JSON text.
fn reply(fields: Value) -> reqwest::multipart::Form {
    let fields = fields.as_object().cloned().unwrap_or_default();
    fields
        .into_iter()
        .fold(reqwest::multipart::Form::new(), |form, (name, value)| {
            let text = value
                .as_str()
                .map(String::from)
                .unwrap_or_else(|| value.to_string());
            form.text(name, text)
        })
}

both_backends!(
    reply_texts_are_held_to_the_cloud_api_limits_when_saved,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("limitedreplies").await;
        let save =
            |fields: Value| app.post_form("/api/automated-replies/", &owner.access, reply(fields));
        let long = save(json!({"trigger": "long", "responseText": "t".repeat(4097)})).await;
        assert_refused(long, "Response text must be at most 4096 characters");
        let caption = json!({"trigger": "c", "responseText": "see", "caption": "c".repeat(1025)});
        assert_refused(
            save(caption).await,
            "Caption must be at most 1024 characters",
        );
        let title = "t".repeat(21);
        let buttons = json!({"trigger": "buttons", "responseText": "pick",
                             "quickReplyButtons": [{"id": "a", "title": title}]});
        assert_refused(
            save(buttons).await,
            &format!("Quick reply button \"{title}\" must be at most 20 characters"),
        );
        let bodied = json!({"trigger": "bodied", "responseText": "b".repeat(1025),
                            "quickReplyButtons": [{"id": "a", "title": "A"}]});
        assert_refused(
            save(bodied).await,
            "Response text with quick reply buttons must be at most 1024 characters",
        );
        let flow = json!({"trigger": "flow", "responseText": "pick",
                          "quickReplyButtons": [{"id": "next", "title": "Next"}],
                          "flow_definitions": {"next": {"responseText": "s".repeat(4097)}}});
        assert_refused(
            save(flow).await,
            "Flow step \"next\": Response text must be at most 4096 characters",
        );

        let longest = json!({"trigger": "longest", "responseText": "t".repeat(4096),
                             "caption": "c".repeat(1024)});
        let (status, body) = save(longest).await;
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
