//! Web Push: the test's own push service and browser, and the server's VAPID key (the pushes
//! themselves are `push_web`). The push service receives the server's requests; the test
//! decrypts them as a browser does (RFC 8291) with keys only it holds, and checks the VAPID
//! signature (RFC 8292).

use std::collections::HashMap;
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::mpsc;

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub const CUSTOMER: &str = "16505559876";
pub(crate) const SUBJECT: &str = "mailto:ops@example.com";
/// How long a test listens for pushes that must not come.
pub(crate) const QUIET: Duration = Duration::from_millis(500);

/// One request a push service received.
pub struct Delivery {
    pub path: String,
    pub(crate) headers: HashMap<String, String>,
    pub(crate) body: Vec<u8>,
}

/// A push service on loopback: records every request; paths under `/gone` answer 410.
pub struct PushService {
    pub(crate) url: String,
    pub(crate) received: mpsc::UnboundedReceiver<Delivery>,
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
    pub(crate) async fn next_n(&mut self, n: usize) -> Vec<Delivery> {
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
    pub(crate) secret: p256::SecretKey,
    pub(crate) auth: [u8; 16],
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

    pub(crate) fn public_key(&self) -> Vec<u8> {
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
    pub(crate) fn decrypt(&self, body: &[u8]) -> Option<Value> {
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
pub(crate) fn check_request(delivery: &Delivery, public_key: &str, audience: &str) {
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

pub(crate) async fn public_key(app: &TestApp) -> String {
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
pub(crate) async fn agent(app: &TestApp, owner: &Session, username: &str) -> Session {
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
pub(crate) fn business_id(token: &str) -> String {
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).expect("claims"))
            .expect("base64url"),
    )
    .expect("claims JSON");
    claims["bid"].as_str().expect("bid").to_string()
}

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
