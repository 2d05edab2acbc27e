//! Web Push end to end: a customer's message and a mention reach the right browsers only; a
//! gone or unsubscribed browser gets no more, a user keeps the newest ones, bad subscriptions
//! are refused.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use parley_server::store::{MAX_PUSH_SUBSCRIPTIONS_PER_USER, Store};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::push::*;

both_backends!(
    a_customer_message_is_pushed_to_every_subscribed_user_of_its_business_only,
    |backend| async move {
        let (app, mut service, shop) = push_setup(backend, "pushshop").await;
        let helper = agent(&app, &shop.session, "pushagent").await;
        let other = app.business("othershop").await;
        let owner_browser = Browser::new(&service, "/owner");
        let agent_browser = Browser::new(&service, "/agent");
        let other_browser = Browser::new(&service, "/other");
        subscribed(&app, &shop.session.access, &owner_browser).await;
        // The subscription may also come as a JSON string.
        let (status, body) = subscribe(
            &app,
            &helper.access,
            Value::String(agent_browser.subscription().to_string()),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        subscribed(&app, &other.session.access, &other_browser).await;
        let key = public_key(&app).await;

        customer_writes(
            &app,
            &shop,
            "Maria",
            text(CUSTOMER, "wamid.push1", "Is my order ready?"),
        )
        .await;
        let pushes = service.next_n(2).await;
        assert_eq!(pushes[0].path, "/agent");
        assert_eq!(pushes[1].path, "/owner");
        for (push, browser) in pushes.iter().zip([&agent_browser, &owner_browser]) {
            check_request(push, &key, &service.url);
            let payload = browser.open(push);
            assert_eq!(payload["name"], "Maria");
            assert_eq!(payload["preview"], "Is my order ready?");
            assert_eq!(
                payload["conversation_id"],
                format!("{}_{CUSTOMER}", shop.phone_number_id)
            );
            assert_eq!(payload["phone_number"], CUSTOMER);
            assert_eq!(payload["message_type"], "text");
            assert_eq!(payload["message_id"], "wamid.push1");
        }
        // Another browser's keys cannot read it.
        assert_eq!(other_browser.decrypt(&pushes[0].body), None);

        // The other business's customer reaches only the other business.
        let hello = text(CUSTOMER, "wamid.push2", "Hello other shop");
        customer_writes(&app, &other, "Maria", hello.clone()).await;
        let push = service.next_to("/other").await;
        let payload = other_browser.open(&push);
        assert_eq!(
            payload["conversation_id"],
            format!("{}_{CUSTOMER}", other.phone_number_id)
        );
        assert_eq!(payload["preview"], "Hello other shop");
        // A redelivered webhook is not a new message: no second push.
        customer_writes(&app, &other, "Maria", hello).await;
        service.assert_quiet().await;
    }
);

both_backends!(
    a_push_service_that_answers_gone_loses_the_subscription,
    |backend| async move {
        let (app, mut service, shop) = push_setup(backend, "goneshop").await;
        let gone = Browser::new(&service, "/gone/1");
        let kept = Browser::new(&service, "/kept");
        subscribed(&app, &shop.session.access, &gone).await;
        subscribed(&app, &shop.session.access, &kept).await;
        // No profile name: the phone stands in; a captioned image previews its caption.
        let image = json!({"from": CUSTOMER, "id": "wamid.img", "timestamp": "1763700000",
            "type": "image", "image": {"caption": "my receipt", "mime_type": "image/jpeg",
            "sha256": "x", "id": "media-push"}});
        customer_writes(&app, &shop, "", image).await;
        let pushes = service.next_n(2).await;
        assert_eq!(pushes[0].path, "/gone/1");
        assert_eq!(pushes[1].path, "/kept");
        let payload = kept.open(&pushes[1]);
        assert_eq!(payload["name"], CUSTOMER);
        assert_eq!(payload["preview"], "my receipt");
        assert_eq!(payload["message_type"], "image");

        let store = Store::connect(&app.settings).await.expect("store");
        let business = business_id(&shop.session.access);
        let mut left = store.push_subscriptions(&business).await.expect("list");
        for _ in 0..100 {
            if left.len() == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            left = store.push_subscriptions(&business).await.expect("list");
        }
        assert_eq!(left.len(), 1, "the gone subscription is removed");
        assert_eq!(left[0].endpoint, kept.endpoint);

        let long = "x".repeat(300);
        customer_writes(&app, &shop, "", text(CUSTOMER, "wamid.long", &long)).await;
        let push = service.next_to("/kept").await;
        let preview = kept.open(&push)["preview"]
            .as_str()
            .expect("preview")
            .to_string();
        assert_eq!(
            preview,
            format!("{}…", "x".repeat(parley_server::push::PREVIEW_CHARS))
        );
        service.assert_quiet().await;
    }
);

both_backends!(
    unsubscribing_stops_the_pushes_to_that_browser,
    |backend| async move {
        let (app, mut service, shop) = push_setup(backend, "unsubshop").await;
        let other = app.business("unsubother").await;
        let leaving = Browser::new(&service, "/leaving");
        let staying = Browser::new(&service, "/staying");
        subscribed(&app, &shop.session.access, &leaving).await;
        subscribed(&app, &shop.session.access, &staying).await;
        // Another business's user cannot remove it.
        let (status, body) =
            unsubscribe(&app, &other.session.access, json!(staying.endpoint.clone())).await;
        assert_eq!((status, &body["removed"]), (200, &json!(0)), "{body}");
        // The subscription object or the bare endpoint both name it.
        let (status, body) = unsubscribe(&app, &shop.session.access, leaving.subscription()).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["status"], "success");
        assert_eq!(body["removed"], 1);
        let (_, body) = unsubscribe(&app, &shop.session.access, json!(leaving.endpoint)).await;
        assert_eq!(body["removed"], 0);

        customer_writes(
            &app,
            &shop,
            "Omar",
            text(CUSTOMER, "wamid.unsub", "still there?"),
        )
        .await;
        let push = service.next_to("/staying").await;
        assert_eq!(staying.open(&push)["name"], "Omar");
        service.assert_quiet().await;
    }
);

both_backends!(
    a_user_keeps_only_the_most_recently_registered_browsers,
    |backend| async move {
        let (app, service, business) = push_setup(backend, "manybrowsers").await;
        let session = business.session;
        let browsers: Vec<Browser> = (0..=MAX_PUSH_SUBSCRIPTIONS_PER_USER)
            .map(|i| Browser::new(&service, &format!("/b{i}")))
            .collect();
        for browser in &browsers {
            subscribed(&app, &session.access, browser).await;
            // Distinct registration times, so "oldest" is well defined.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let (_, body) = unsubscribe(&app, &session.access, json!(browsers[0].endpoint)).await;
        assert_eq!(body["removed"], 0, "the oldest was dropped");
        let (_, body) = unsubscribe(&app, &session.access, json!(browsers[1].endpoint)).await;
        assert_eq!(body["removed"], 1, "the others are kept");
    }
);

both_backends!(
    bad_subscriptions_are_refused_with_clear_errors,
    |backend| async move {
        // Default settings: only https endpoints.
        let app = spawn_app(backend).await;
        let session = app.register("badpush").await;
        let good = || {
            let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
            use p256::elliptic_curve::sec1::ToEncodedPoint;
            json!({"endpoint": "https://push.example.com/send/abc",
                "keys": {"p256dh": URL_SAFE_NO_PAD.encode(
                    secret.public_key().to_encoded_point(false).as_bytes()),
                    "auth": URL_SAFE_NO_PAD.encode([7u8; 16])}})
        };
        let with = |pointer: &str, value: Value| {
            let mut token = good();
            *token.pointer_mut(pointer).expect("field") = value;
            token
        };
        let mut off_curve = vec![4u8];
        off_curve.extend([1u8; 64]);
        let cases = [
            (json!({"platform": "web"}), 422, "token is required"),
            (json!({"token": good()}), 422, "platform is required"),
            (
                json!({"token": good(), "platform": " "}),
                422,
                "platform is required",
            ),
            (
                json!({"token": "fcm-token", "platform": "android"}),
                422,
                "platform \"android\" needs FCM, which this server is not configured for: set \
                 push.fcm.project_id and push.fcm.service_account_file",
            ),
            (
                json!({"token": good(), "platform": "windows"}),
                400,
                "platform \"windows\" is not supported",
            ),
            (
                json!({"token": "not json", "platform": "web"}),
                400,
                "token must be a PushSubscription",
            ),
            (
                json!({"token": {"endpoint": "https://push.example.com/x"}, "platform": "web"}),
                400,
                "token must be a PushSubscription",
            ),
            (
                json!({"token": with("/endpoint", json!("http://push.example.com/x")), "platform": "web"}),
                400,
                "token.endpoint must be an https URL",
            ),
            (
                json!({"token": with("/endpoint", json!("not a url")), "platform": "web"}),
                400,
                "token.endpoint is not a URL",
            ),
            (
                json!({"token": with("/keys/p256dh", json!(URL_SAFE_NO_PAD.encode([4u8; 33]))), "platform": "web"}),
                400,
                "token.keys.p256dh must be base64url of an uncompressed P-256 public key",
            ),
            (
                json!({"token": with("/keys/p256dh", json!(URL_SAFE_NO_PAD.encode(&off_curve))), "platform": "web"}),
                400,
                "token.keys.p256dh must be base64url",
            ),
            (
                json!({"token": with("/keys/auth", json!(URL_SAFE_NO_PAD.encode([1u8; 15]))), "platform": "web"}),
                400,
                "token.keys.auth must be base64url of 16 bytes",
            ),
            (
                json!({"token": with("/keys/auth", json!("***")), "platform": "web"}),
                400,
                "token.keys.auth must be base64url of 16 bytes",
            ),
        ];
        for (body, want, expected) in cases {
            let (status, answer) = app
                .post(
                    "/api/subscribe-to-notifications",
                    body.clone(),
                    Some(&session.access),
                )
                .await;
            assert_eq!(status, want, "{body} -> {answer}");
            let code = if want == 400 {
                "bad_request"
            } else {
                "validation_failed"
            };
            assert_eq!(answer["code"], code);
            let detail = answer["detail"].as_str().expect("detail");
            assert!(detail.starts_with(expected), "{body}: {detail}");
            assert_eq!(answer["message"], answer["detail"]);
        }
        let (status, answer) = app
            .post(
                "/api/unsubscribe-from-notifications",
                json!({}),
                Some(&session.access),
            )
            .await;
        assert_eq!(status, 422, "{answer}");
        assert!(
            answer["detail"]
                .as_str()
                .expect("detail")
                .starts_with("token is required")
        );
        // Signed-in callers only.
        let (status, _) = app
            .post(
                "/api/subscribe-to-notifications",
                json!({"token": good(), "platform": "web"}),
                None,
            )
            .await;
        assert_eq!(status, 401);
        let (status, _) = app
            .post(
                "/api/unsubscribe-from-notifications",
                json!({"token": "https://push.example.com/send/abc"}),
                None,
            )
            .await;
        assert_eq!(status, 401);
        // Padded base64url is accepted; the answer says when to register again (7 days).
        let mut padded = good();
        padded["keys"]["auth"] = json!(format!("{}==", URL_SAFE_NO_PAD.encode([7u8; 16])));
        let before = chrono::Utc::now();
        let (status, body) = subscribe(&app, &session.access, padded).await;
        assert_eq!(status, 200, "{body}");
        let refresh = chrono::DateTime::parse_from_rfc3339(
            body["refresh_after"].as_str().expect("refresh_after"),
        )
        .expect("RFC 3339");
        let days = (refresh.with_timezone(&chrono::Utc) - before).num_hours() as f64 / 24.0;
        assert!((6.9..=7.1).contains(&days), "{days}");
    }
);

both_backends!(
    a_mention_in_a_private_note_is_pushed_to_the_mentioned_agent_only,
    |backend| async move {
        let (app, mut service, shop) = push_setup(backend, "noteshop").await;
        let helper = agent(&app, &shop.session, "noteagent").await;
        let owner_browser = Browser::new(&service, "/owner");
        let agent_browser = Browser::new(&service, "/agent");
        subscribed(&app, &shop.session.access, &owner_browser).await;
        subscribed(&app, &helper.access, &agent_browser).await;
        customer_writes(
            &app,
            &shop,
            "Maria",
            text(CUSTOMER, "wamid.note1", "Refund?"),
        )
        .await;
        service.next_n(2).await;

        let (status, note) = app
            .post(
                &format!("/api/conversation/{CUSTOMER}/notes"),
                json!({"text": "@noteagent please refund Maria"}),
                Some(&shop.session.access),
            )
            .await;
        assert_eq!(status, 201, "{note}");
        let push = service.next_to("/agent").await;
        let payload = agent_browser.open(&push);
        assert_eq!(payload["preview"], "@noteagent please refund Maria");
        assert_eq!(payload["message_type"], "note");
        assert_eq!(payload["message_id"], note["message_id"]);
        assert_eq!(payload["mention"], json!({"by": "Test noteshop"}));
        service.assert_quiet().await;
    }
);
