//! Web Push: registration, and the encrypted notification a browser gets when a customer writes.
//! A push service of the test's own receives the requests; the test decrypts them as a browser
//! does (RFC 8291) with keys only it holds, and checks the VAPID signature (RFC 8292).

use std::collections::HashMap;
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use parley_server::store::{MAX_PUSH_SUBSCRIPTIONS_PER_USER, Store};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::mpsc;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub const CUSTOMER: &str = "16505559876";
const SUBJECT: &str = "mailto:ops@example.com";
/// How long a test listens for pushes that must not come.
const QUIET: Duration = Duration::from_millis(500);

/// One request a push service received.
pub struct Delivery {
    pub path: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

/// A push service on loopback: records every request; paths under `/gone` answer 410.
pub struct PushService {
    url: String,
    received: mpsc::UnboundedReceiver<Delivery>,
}

impl PushService {
    pub fn start() -> PushService {
        let (sink, received) = mpsc::unbounded_channel();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind push service");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let server = HttpServer::new(move || {
            let sink = sink.clone();
            App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
                let sink = sink.clone();
                async move {
                    let headers = req
                        .headers()
                        .iter()
                        .map(|(k, v)| {
                            (k.as_str().to_string(), v.to_str().unwrap_or("").to_string())
                        })
                        .collect();
                    let path = req.path().to_string();
                    let gone = path.starts_with("/gone");
                    let _ = sink.send(Delivery {
                        path,
                        headers,
                        body: body.to_vec(),
                    });
                    if gone {
                        HttpResponse::Gone().finish()
                    } else {
                        HttpResponse::Created().finish()
                    }
                }
            }))
        })
        .workers(1)
        .listen(listener)
        .expect("listen")
        .run();
        actix_web::rt::spawn(server);
        PushService { url, received }
    }

    pub async fn next(&mut self) -> Delivery {
        tokio::time::timeout(EVENT_WAIT, self.received.recv())
            .await
            .expect("a push arrives in time")
            .expect("push service running")
    }

    /// The next request, which must go to `path`.
    pub async fn next_to(&mut self, path: &str) -> Delivery {
        let push = self.next().await;
        assert_eq!(push.path, path);
        push
    }

    /// The next `n` requests, by path.
    async fn next_n(&mut self, n: usize) -> Vec<Delivery> {
        let mut all = Vec::new();
        for _ in 0..n {
            all.push(self.next().await);
        }
        all.sort_by(|a, b| a.path.cmp(&b.path));
        all
    }

    /// Nothing more arrives within a short quiet period.
    pub async fn assert_quiet(&mut self) {
        tokio::time::sleep(QUIET).await;
        if let Ok(extra) = self.received.try_recv() {
            panic!("unexpected push to {}", extra.path);
        }
    }
}

/// A browser's side of a subscription: its own key pair and auth secret.
pub struct Browser {
    pub endpoint: String,
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    pub fn new(service: &PushService, path: &str) -> Browser {
        let mut auth = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut auth);
        Browser {
            endpoint: format!("{}{path}", service.url),
            secret: p256::SecretKey::random(&mut rand::rngs::OsRng),
            auth,
        }
    }

    fn public_key(&self) -> Vec<u8> {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        self.secret
            .public_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }

    /// `PushSubscription.toJSON()` as a browser gives it.
    pub fn subscription(&self) -> Value {
        json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.public_key()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
    }

    /// Decrypts an `aes128gcm` body (RFC 8188 framing, RFC 8291 keys) into the JSON payload;
    /// `None` when these keys cannot.
    fn decrypt(&self, body: &[u8]) -> Option<Value> {
        let salt = body.get(..16)?;
        let record_size = u32::from_be_bytes(body.get(16..20)?.try_into().ok()?);
        let id_len = *body.get(20)? as usize;
        // The key id is the server's ephemeral public key, and the payload fits one record.
        let server_public = body.get(21..21 + id_len)?;
        let ciphertext = body.get(21 + id_len..)?;
        if id_len != 65 || ciphertext.len() > record_size as usize {
            return None;
        }
        let server_key = p256::PublicKey::from_sec1_bytes(server_public).ok()?;
        let shared =
            p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), server_key.as_affine());
        let mut key_info = b"WebPush: info\0".to_vec();
        key_info.extend(self.public_key());
        key_info.extend(server_public);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&key_info, &mut ikm)
            .ok()?;
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let mut cek = [0u8; 16];
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .ok()?;
        let mut nonce = [0u8; 12];
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce).ok()?;
        let cipher = Aes128Gcm::new_from_slice(&cek).ok()?;
        let mut plain = cipher.decrypt(&Nonce::from(nonce), ciphertext).ok()?;
        // The last record ends with the delimiter 2, then zero padding.
        while plain.last() == Some(&0) {
            plain.pop();
        }
        (plain.pop() == Some(2)).then_some(())?;
        serde_json::from_slice(&plain).ok()
    }

    /// The payload of a push that must be for this browser.
    pub fn open(&self, push: &Delivery) -> Value {
        self.decrypt(&push.body)
            .unwrap_or_else(|| panic!("the push to {} decrypts with its keys", push.path))
    }
}

/// Checks the headers of a push and its VAPID signature (RFC 8292) against the app's public key.
fn check_request(delivery: &Delivery, public_key: &str, audience: &str) {
    assert_eq!(delivery.headers["content-encoding"], "aes128gcm");
    assert_eq!(delivery.headers["ttl"], "86400");
    assert_eq!(delivery.headers["urgency"], "high");
    let authorization = &delivery.headers["authorization"];
    let rest = authorization
        .strip_prefix("vapid t=")
        .expect("vapid scheme");
    let (jwt, key) = rest.split_once(", k=").expect("t and k");
    assert_eq!(key, public_key, "signed with the advertised key");
    let (signed, signature) = jwt.rsplit_once('.').expect("signature");
    let verifying = p256::ecdsa::VerifyingKey::from_sec1_bytes(
        &URL_SAFE_NO_PAD.decode(key).expect("key is base64url"),
    )
    .expect("P-256 key");
    let signature =
        p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).expect("base64url"))
            .expect("ES256 signature");
    verifying
        .verify(signed.as_bytes(), &signature)
        .expect("the VAPID token verifies");
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(signed.split('.').nth(1).expect("claims"))
            .expect("base64url"),
    )
    .expect("claims JSON");
    assert_eq!(claims["aud"], audience);
    assert_eq!(claims["sub"], SUBJECT);
}

/// The app (local http push endpoints allowed, a VAPID subject to check), a push service and a
/// business registered as `username`.
pub async fn push_setup(backend: Backend, username: &str) -> (TestApp, PushService, Business) {
    let (mut settings, dir) = test_settings(backend).await;
    settings.push.allow_http_endpoints = true;
    settings.push.subject = SUBJECT.into();
    let app = spawn_with(settings, dir).await;
    let business = app.business(username).await;
    (app, PushService::start(), business)
}

pub async fn subscribe(app: &TestApp, token: &str, subscription: Value) -> (u16, Value) {
    app.post(
        "/api/subscribe-to-notifications",
        json!({"token": subscription, "platform": "web"}),
        Some(token),
    )
    .await
}

pub async fn subscribed(app: &TestApp, token: &str, browser: &Browser) {
    let (status, body) = subscribe(app, token, browser.subscription()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "success");
}

pub async fn unsubscribe(app: &TestApp, token: &str, subscription: Value) -> (u16, Value) {
    app.post(
        "/api/unsubscribe-from-notifications",
        json!({"token": subscription}),
        Some(token),
    )
    .await
}

async fn public_key(app: &TestApp) -> String {
    let response = app
        .client
        .get(app.url("/api/push/public-key"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    body["publicKey"].as_str().expect("publicKey").to_string()
}

/// An agent of the owner's business, signed in.
async fn agent(app: &TestApp, owner: &Session, username: &str) -> Session {
    let (status, body) = app
        .post(
            "/identity/users/agents",
            json!({"firstName": "Agent", "lastName": username, "username": username,
                   "email": format!("{username}@example.com"), "password": "correct horse"}),
            Some(&owner.access),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = app.login(username, "correct horse").await;
    assert_eq!(status, 200, "{body}");
    session_of(&body)
}

/// The customer `CUSTOMER` (with profile `name`, or none when empty) sends `message` to
/// `business`.
pub async fn customer_writes(app: &TestApp, business: &Business, name: &str, message: Value) {
    let mut envelope = inbound(&business.phone_number_id, CUSTOMER, name, vec![message]);
    if name.is_empty() {
        envelope["entry"][0]["changes"][0]["value"]["contacts"] = json!([]);
    }
    let (status, answer) = app.webhook(&envelope, &business.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

/// The business id carried by an access token.
fn business_id(token: &str) -> String {
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).expect("claims"))
            .expect("base64url"),
    )
    .expect("claims JSON");
    claims["bid"].as_str().expect("bid").to_string()
}

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
    the_vapid_key_is_generated_once_and_kept,
    |backend| async move {
        let app = spawn_app(backend).await;
        let key = public_key(&app).await;
        let raw = URL_SAFE_NO_PAD.decode(&key).expect("base64url");
        assert_eq!(raw.len(), 65);
        assert_eq!(raw[0], 4, "uncompressed point");
        p256::PublicKey::from_sec1_bytes(&raw).expect("a P-256 point");
        let file = app.data_dir.path().join("vapid.key");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file)
                .expect("vapid.key")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // A restart on the same data dir advertises the same key, so subscriptions stay valid.
        let mut settings = app.settings.clone();
        settings.server.bind = "127.0.0.1:0".into();
        let again = parley_server::app::Application::build(settings)
            .await
            .expect("second start");
        let port = again.port();
        actix_web::rt::spawn(again.run_until_stopped());
        let body: Value = app
            .client
            .get(format!("http://127.0.0.1:{port}/api/push/public-key"))
            .send()
            .await
            .expect("request")
            .json()
            .await
            .expect("JSON");
        assert_eq!(body["publicKey"], key);
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
