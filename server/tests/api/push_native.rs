//! Native push through FCM HTTP v1: the server signs a service-account assertion, exchanges it
//! for an access token and sends each device a message. A fake Google token endpoint and a fake
//! FCM of the test's own check what the real ones check: the assertion's RS256 signature against
//! the test key's public half, its claims and grant type; the bearer token, the project and the
//! message's shape.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::push::{Browser, CUSTOMER, PushService, customer_writes, subscribed};

const PROJECT: &str = "parley-test";
const CLIENT_EMAIL: &str = "parley-push@parley-test.iam.gserviceaccount.com";
/// Test-only key pair: the service account file and the public half Google would hold.
const SERVICE_ACCOUNT: &str = include_str!("fixtures/fcm-service-account.json");
const PUBLIC_PEM: &str = include_str!("fixtures/fcm-service-account.pub.pem");

/// One message FCM accepted or refused, as sent.
struct FcmMessage {
    /// The `Authorization` header.
    bearer: String,
    message: Value,
}

/// Google's token endpoint and FCM on loopback.
struct FakeGoogle {
    url: String,
    /// Access tokens issued so far.
    issued: Arc<AtomicUsize>,
    messages: mpsc::UnboundedReceiver<Result<FcmMessage, String>>,
}

/// Checks an assertion as Google's token endpoint does; answers why it is refused.
fn check_assertion(form: &HashMap<String, String>, token_uri: &str) -> Result<(), String> {
    if form.get("grant_type").map(String::as_str)
        != Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
    {
        return Err(format!("grant_type {:?}", form.get("grant_type")));
    }
    let assertion = form.get("assertion").ok_or("no assertion")?;
    let key = DecodingKey::from_rsa_pem(PUBLIC_PEM.as_bytes()).map_err(|e| e.to_string())?;
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[token_uri]);
    validation.set_issuer(&[CLIENT_EMAIL]);
    validation.set_required_spec_claims(&["exp", "iat", "aud", "iss"]);
    let claims = jsonwebtoken::decode::<Value>(assertion, &key, &validation)
        .map_err(|e| format!("assertion refused: {e}"))?
        .claims;
    if claims["scope"] != "https://www.googleapis.com/auth/firebase.messaging" {
        return Err(format!("scope {}", claims["scope"]));
    }
    let lifetime = claims["exp"].as_i64().unwrap_or(0) - claims["iat"].as_i64().unwrap_or(0);
    if !(1..=3600).contains(&lifetime) {
        return Err(format!("assertion lives {lifetime} s"));
    }
    Ok(())
}

/// Checks a send as FCM does: the bearer token it issued, the project, the message's shape.
fn check_message(bearer: &str, project: &str, body: &Value, issued: usize) -> Result<(), String> {
    let known = (1..=issued).any(|n| bearer == format!("Bearer ya29.test-{n}"));
    if !known || project != PROJECT {
        return Err(format!("unknown bearer or project {project}"));
    }
    let message = &body["message"];
    let strings = |value: &Value| {
        value
            .as_object()
            .is_some_and(|o| o.values().all(Value::is_string))
    };
    let shaped = message["token"].is_string()
        && message["notification"]["title"].is_string()
        && message["notification"]["body"].is_string()
        && strings(&message["data"])
        && message["android"]["priority"] == "high"
        && message["apns"]["payload"]["aps"].is_object();
    if !shaped {
        return Err(format!("malformed message {body}"));
    }
    // FCM refuses data keys it reserves.
    let reserved = |key: &String| {
        ["from", "message_type"].contains(&key.as_str())
            || key.starts_with("google")
            || key.starts_with("gcm")
    };
    if let Some(key) = message["data"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
        .find(|k| reserved(k))
    {
        return Err(format!("reserved data key {key}"));
    }
    Ok(())
}

impl FakeGoogle {
    fn start() -> FakeGoogle {
        let (sink, messages) = mpsc::unbounded_channel();
        let issued = Arc::new(AtomicUsize::new(0));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind fake Google");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let token_uri = format!("{url}/token");
        let counter = issued.clone();
        let server = HttpServer::new(move || {
            let (sink, issued, token_uri) = (sink.clone(), counter.clone(), token_uri.clone());
            let (token_sink, token_issued) = (sink.clone(), issued.clone());
            App::new()
                .route(
                    "/token",
                    web::post().to(move |form: web::Form<HashMap<String, String>>| {
                        let (issued, token_uri, sink) =
                            (token_issued.clone(), token_uri.clone(), token_sink.clone());
                        async move {
                            if let Err(why) = check_assertion(&form, &token_uri) {
                                let _ = sink.send(Err(why));
                                return HttpResponse::BadRequest()
                                    .json(json!({"error": "invalid_grant"}));
                            }
                            let n = issued.fetch_add(1, Ordering::SeqCst) + 1;
                            HttpResponse::Ok().json(json!({
                                "access_token": format!("ya29.test-{n}"),
                                "expires_in": 3599,
                                "token_type": "Bearer",
                            }))
                        }
                    }),
                )
                .route(
                    "/v1/projects/{project}/messages:send",
                    web::post().to(
                        move |req: HttpRequest, path: web::Path<String>, body: web::Json<Value>| {
                            let (sink, issued) = (sink.clone(), issued.load(Ordering::SeqCst));
                            async move {
                                let bearer = req
                                    .headers()
                                    .get("authorization")
                                    .and_then(|v| v.to_str().ok())
                                    .unwrap_or_default()
                                    .to_string();
                                if let Err(why) = check_message(&bearer, &path, &body, issued) {
                                    let _ = sink.send(Err(why));
                                    return HttpResponse::Unauthorized().finish();
                                }
                                let device = body["message"]["token"].as_str().unwrap_or("");
                                let answer = fcm_answer(device);
                                let _ = sink.send(Ok(FcmMessage {
                                    bearer,
                                    message: body.into_inner()["message"].take(),
                                }));
                                answer
                            }
                        },
                    ),
                )
        })
        .workers(1)
        .listen(listener)
        .expect("listen")
        .run();
        actix_web::rt::spawn(server);
        FakeGoogle {
            url,
            issued,
            messages,
        }
    }

    /// The next message FCM received; fails on anything the fakes refused.
    async fn next(&mut self) -> FcmMessage {
        tokio::time::timeout(EVENT_WAIT, self.messages.recv())
            .await
            .expect("an FCM message arrives in time")
            .expect("fake FCM running")
            .unwrap_or_else(|why| panic!("the fake Google refused a request: {why}"))
    }

    /// The next `n` messages, by device token.
    async fn next_n(&mut self, n: usize) -> Vec<FcmMessage> {
        let mut all = Vec::new();
        for _ in 0..n {
            all.push(self.next().await);
        }
        all.sort_by(|a, b| {
            a.message["token"]
                .as_str()
                .cmp(&b.message["token"].as_str())
        });
        all
    }
}

/// FCM's answer for a device: `gone-404…` is not found, `gone-unregistered…` is unregistered.
fn fcm_answer(device: &str) -> HttpResponse {
    if device.starts_with("gone-404") {
        HttpResponse::NotFound().json(json!({"error": {"code": 404,
            "message": "Requested entity was not found.", "status": "NOT_FOUND"}}))
    } else if device.starts_with("gone-unregistered") {
        HttpResponse::BadRequest().json(json!({"error": {"code": 400,
            "message": "The registration token is not registered.", "status": "UNREGISTERED",
            "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": "UNREGISTERED"}]}}))
    } else {
        HttpResponse::Ok().json(json!({"name": format!("projects/{PROJECT}/messages/1")}))
    }
}

/// The app with FCM pointed at `google` (and local Web Push allowed), and a business.
async fn native_setup(backend: Backend, username: &str) -> (TestApp, FakeGoogle, Business) {
    let google = FakeGoogle::start();
    let (mut settings, dir) = test_settings(backend).await;
    let mut account: Value = serde_json::from_str(SERVICE_ACCOUNT).expect("fixture JSON");
    account["token_uri"] = json!(format!("{}/token", google.url));
    let file = dir.path().join("fcm-service-account.json");
    std::fs::write(&file, account.to_string()).expect("service account written");
    settings.push.allow_http_endpoints = true;
    settings.push.fcm.project_id = PROJECT.into();
    settings.push.fcm.service_account_file = file;
    settings.push.fcm.endpoint = google.url.clone();
    let app = spawn_with(settings, dir).await;
    let business = app.business(username).await;
    (app, google, business)
}

async fn subscribe_device(app: &TestApp, token: &str, platform: &str, device: &str) -> Value {
    let (status, body) = app
        .post(
            "/api/subscribe-to-notifications",
            json!({"token": device, "platform": platform}),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "success");
    body
}

both_backends!(
    a_customer_message_reaches_browsers_and_native_devices_with_one_access_token,
    |backend| async move {
        let (app, mut google, shop) = native_setup(backend, "nativeshop").await;
        let mut service = PushService::start();
        let browser = Browser::new(&service, "/owner");
        let owner = &shop.session.access;
        subscribed(&app, owner, &browser).await;
        let answer = subscribe_device(&app, owner, "android", "android-device-1").await;
        assert!(answer["refresh_after"].is_string(), "{answer}");
        subscribe_device(&app, owner, "ios", "ios-device-1").await;

        customer_writes(
            &app,
            &shop,
            "Nadia",
            text(CUSTOMER, "wamid.n1", "Is it open?"),
        )
        .await;
        let conversation = format!("{}_{CUSTOMER}", shop.phone_number_id);
        let web = browser.open(&service.next_to("/owner").await);
        assert_eq!(web["conversation_id"], conversation);
        let sent = google.next_n(2).await;
        assert_eq!(sent[0].message["token"], "android-device-1");
        assert_eq!(sent[1].message["token"], "ios-device-1");
        for native in &sent {
            let message = &native.message;
            assert_eq!(message["data"]["conversation_id"], conversation);
            assert_eq!(message["data"]["preview"], "Is it open?");
            assert_eq!(message["data"]["message_id"], "wamid.n1");
            assert_eq!(message["data"]["kind"], "text");
            assert_eq!(message["notification"]["title"], "Nadia");
            assert_eq!(message["notification"]["body"], "Is it open?");
        }

        customer_writes(&app, &shop, "Nadia", text(CUSTOMER, "wamid.n2", "Hello?")).await;
        let again = google.next_n(2).await;
        assert!(
            again
                .iter()
                .all(|m| m.message["data"]["preview"] == "Hello?")
        );
        assert!(again.iter().all(|m| m.bearer == sent[0].bearer));
        assert_eq!(
            google.issued.load(Ordering::SeqCst),
            1,
            "the access token is fetched once and reused"
        );

        // A device leaves by its token alone.
        let (status, body) = app
            .post(
                "/api/unsubscribe-from-notifications",
                json!({"token": "ios-device-1"}),
                Some(owner),
            )
            .await;
        assert_eq!((status, &body["removed"]), (200, &json!(1)), "{body}");
    }
);

both_backends!(
    a_device_fcm_no_longer_knows_is_forgotten,
    |backend| async move {
        let (app, mut google, shop) = native_setup(backend, "goneapp").await;
        let owner = &shop.session.access;
        for device in ["gone-404-a", "gone-unregistered-b", "kept-c"] {
            subscribe_device(&app, owner, "android", device).await;
        }
        customer_writes(&app, &shop, "", text(CUSTOMER, "wamid.g1", "hi")).await;
        let sent = google.next_n(3).await;
        assert_eq!(sent[2].message["token"], "kept-c");

        let (store, business) = store_of(&app, &shop).await;
        let left = || async {
            let all = store.push_subscriptions(&business).await.expect("list");
            all.into_iter().map(|s| s.endpoint).collect::<Vec<_>>()
        };
        let mut devices = left().await;
        for _ in 0..100 {
            if devices.len() == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            devices = left().await;
        }
        assert_eq!(devices, ["kept-c"], "unregistered devices are removed");
    }
);

both_backends!(
    signing_out_everywhere_forgets_the_users_devices,
    |backend| async move {
        let (app, _google, shop) = native_setup(backend, "leaver").await;
        let owner = &shop.session.access;
        subscribe_device(&app, owner, "android", "leaving-phone").await;
        let (store, business) = store_of(&app, &shop).await;
        assert_eq!(
            store
                .push_subscriptions(&business)
                .await
                .expect("list")
                .len(),
            1
        );

        let (status, body) = app
            .post("/identity/auth/logout-all", json!({}), Some(owner))
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(
            store
                .push_subscriptions(&business)
                .await
                .expect("list")
                .is_empty()
        );
    }
);

both_backends!(
    a_native_subscription_needs_a_device_token,
    |backend| async move {
        let (app, _google, shop) = native_setup(backend, "badtokens").await;
        for (token, expected) in [
            (json!({"endpoint": "x"}), 400),
            (json!(""), 422),
            (json!("   "), 422),
            (json!("has spaces inside"), 400),
            (Value::Null, 422),
        ] {
            let (status, body) = app
                .post(
                    "/api/subscribe-to-notifications",
                    json!({"token": token, "platform": "ios"}),
                    Some(&shop.session.access),
                )
                .await;
            assert_eq!(status, expected, "{token}: {body}");
            assert!(body["detail"].is_string(), "{body}");
        }
    }
);

both_backends!(
    a_device_token_is_kept_up_to_2048_characters_and_refused_beyond,
    |backend| async move {
        let (app, _google, shop) = native_setup(backend, "longtokenshop").await;
        let token = unrepeated_letters(2049, 7);
        let owner = &shop.session.access;
        let (status, body) = app
            .post(
                "/api/subscribe-to-notifications",
                json!({"token": token, "platform": "android"}),
                Some(owner),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        subscribe_device(&app, owner, "android", &token[..2048]).await;
    }
);
