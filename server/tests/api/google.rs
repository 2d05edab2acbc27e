//! Google sign-in against a fake OAuth/OIDC issuer that each test starts on 127.0.0.1: its own
//! RSA key (`fixtures/fake_google_rsa.pem`, test-only), a JWKS and a token endpoint. The flows
//! are tested in `google_browser` and `google_mobile`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpResponse, HttpServer, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::Method;
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

/// A test-only key; it signs nothing outside these tests.
pub(crate) const FAKE_GOOGLE_KEY: &str = include_str!("fixtures/fake_google_rsa.pem");
pub(crate) const KID: &str = "fake-google-key-1";
pub(crate) const ISSUER: &str = "https://accounts.fake-google.test";
pub(crate) const CLIENT_ID: &str = "parley-test.apps.fake-google.test";
pub(crate) const CLIENT_SECRET: &str = "fake-client-secret";

/// What the fake issuer remembers.
#[derive(Default)]
pub(crate) struct FakeState {
    /// The ID token the token endpoint answers for each authorization code.
    pub(crate) tokens_by_code: Mutex<HashMap<String, String>>,
    /// Every form posted to the token endpoint.
    pub(crate) exchanges: Mutex<Vec<HashMap<String, String>>>,
    /// How often the key set was fetched.
    pub(crate) jwks_fetches: Mutex<u32>,
}

pub(crate) struct FakeGoogle {
    pub(crate) base: String,
    pub(crate) state: Arc<FakeState>,
    pub(crate) key: EncodingKey,
}

impl FakeGoogle {
    /// Starts the issuer on a random port.
    pub(crate) fn start() -> FakeGoogle {
        let private = rsa::RsaPrivateKey::from_pkcs1_pem(FAKE_GOOGLE_KEY).expect("fixture key");
        let jwks = json!({"keys": [{
            "kty": "RSA",
            "kid": KID,
            "use": "sig",
            "alg": "RS256",
            "n": URL_SAFE_NO_PAD.encode(private.n().to_bytes_be()),
            "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
        }]});
        let state = Arc::new(FakeState::default());
        let shared = web::Data::from(state.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind fake issuer");
        let port = listener.local_addr().expect("local addr").port();
        let server = HttpServer::new(move || {
            let jwks = jwks.clone();
            App::new()
                .app_data(shared.clone())
                .route(
                    "/jwks",
                    web::get().to(move |state: web::Data<FakeState>| {
                        let jwks = jwks.clone();
                        async move {
                            *state.jwks_fetches.lock().expect("lock") += 1;
                            HttpResponse::Ok().json(jwks)
                        }
                    }),
                )
                .route("/token", web::post().to(token_endpoint))
        })
        .workers(1)
        .listen(listener)
        .expect("listen")
        .run();
        actix_web::rt::spawn(server);
        FakeGoogle {
            base: format!("http://127.0.0.1:{port}"),
            state,
            key: fixture_encoding_key(),
        }
    }

    /// Signs claims as this issuer (RS256, with our `kid`).
    pub(crate) fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(KID.into());
        jsonwebtoken::encode(&header, claims, &self.key).expect("id token signs")
    }

    /// A valid ID token for this Google account.
    pub(crate) fn id_token(&self, sub: &str, email: &str) -> String {
        self.sign(&claims(sub, email))
    }

    /// Makes the token endpoint answer `id_token` for `code`.
    pub(crate) fn grant(&self, code: &str, id_token: String) {
        self.state
            .tokens_by_code
            .lock()
            .expect("lock")
            .insert(code.into(), id_token);
    }

    pub(crate) fn exchanges(&self) -> Vec<HashMap<String, String>> {
        self.state.exchanges.lock().expect("lock").clone()
    }
}

/// The token endpoint: a known code gets its ID token, anything else `invalid_grant`.
pub(crate) async fn token_endpoint(
    state: web::Data<FakeState>,
    form: web::Form<HashMap<String, String>>,
) -> HttpResponse {
    let form = form.into_inner();
    state.exchanges.lock().expect("lock").push(form.clone());
    let known = form.get("code").and_then(|code| {
        state
            .tokens_by_code
            .lock()
            .expect("lock")
            .get(code)
            .cloned()
    });
    match known {
        Some(id_token) if form.get("client_secret").map(String::as_str) == Some(CLIENT_SECRET) => {
            HttpResponse::Ok().json(json!({
                "access_token": "fake-google-access-token",
                "token_type": "Bearer",
                "expires_in": 3599,
                "id_token": id_token,
            }))
        }
        _ => HttpResponse::BadRequest().json(json!({"error": "invalid_grant"})),
    }
}

/// The fixture key for signing (jsonwebtoken takes PKCS#1 DER without its `use_pem` feature).
pub(crate) fn fixture_encoding_key() -> EncodingKey {
    let private = rsa::RsaPrivateKey::from_pkcs1_pem(FAKE_GOOGLE_KEY).expect("fixture key");
    EncodingKey::from_rsa_der(private.to_pkcs1_der().expect("DER").as_bytes())
}

pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// The claims Google puts in an ID token for a verified account.
pub(crate) fn claims(sub: &str, email: &str) -> Value {
    let now = now_secs();
    json!({
        "iss": ISSUER,
        "aud": CLIENT_ID,
        "azp": CLIENT_ID,
        "sub": sub,
        "email": email,
        "email_verified": true,
        "given_name": "Gwen",
        "family_name": "Stacy",
        "iat": now,
        "exp": now + 600,
    })
}

/// The app with Google pointed at the fake issuer. The port is bound first so the app is built
/// knowing its own public URL, which the OAuth `redirect_uri` and the final redirect use.
pub(crate) async fn spawn_with_google(backend: Backend, google: &FakeGoogle) -> TestApp {
    let (mut settings, dir) = test_settings(backend).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    settings.server.bind = format!("127.0.0.1:{port}");
    settings.server.public_url = format!("http://127.0.0.1:{port}");
    settings.google.client_id = CLIENT_ID.into();
    settings.google.client_secret = CLIENT_SECRET.into();
    settings.google.auth_url = format!("{}/o/oauth2/v2/auth", google.base);
    settings.google.token_url = format!("{}/token", google.base);
    settings.google.jwks_url = format!("{}/jwks", google.base);
    settings.google.issuers = vec![ISSUER.into()];
    let app = spawn_with(settings, dir).await;
    assert_eq!(app.settings.server.public_url, app.address);
    app
}

pub(crate) async fn mobile(app: &TestApp, token: &str) -> (u16, Value) {
    app.post(
        "/identity/auth/google/mobile",
        json!({"token": token}),
        None,
    )
    .await
}

/// A redirect's target, parsed.
pub(crate) fn location(response: &reqwest::Response) -> url::Url {
    let raw = response
        .headers()
        .get("Location")
        .and_then(|v| v.to_str().ok())
        .expect("a Location header");
    url::Url::parse(raw).expect("Location is a URL")
}

pub(crate) fn query_of(url: &url::Url) -> HashMap<String, String> {
    url.query_pairs().into_owned().collect()
}

/// `name=value` of the `Set-Cookie` header for `name`, and its attributes.
pub(crate) fn set_cookie(response: &reqwest::Response, name: &str) -> Option<(String, String)> {
    response
        .headers()
        .get_all("Set-Cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| {
            let (pair, attributes) = v.split_once(';').unwrap_or((v, ""));
            let value = pair.split_once('=').map(|(_, v)| v).unwrap_or_default();
            (value.to_string(), attributes.to_string())
        })
}

/// `GET /identity/auth/google`: answers the state and the cookie the browser would keep.
pub(crate) async fn start_browser_flow(app: &TestApp) -> (String, String) {
    let response = app
        .client
        .get(app.url("/identity/auth/google"))
        .send()
        .await
        .expect("request sent");
    assert_eq!(response.status().as_u16(), 302);
    let target = location(&response);
    let query = query_of(&target);
    let (cookie, _) = set_cookie(&response, "parley_oauth_state").expect("a state cookie");
    let state = query.get("state").expect("state").clone();
    (state, format!("parley_oauth_state={cookie}"))
}

pub(crate) async fn callback(
    app: &TestApp,
    query: &str,
    cookie: Option<&str>,
) -> reqwest::Response {
    let mut request = app
        .client
        .get(app.url(&format!("/identity/auth/google/callback?{query}")));
    if let Some(cookie) = cookie {
        request = request.header("Cookie", cookie);
    }
    request.send().await.expect("request sent")
}

both_backends!(
    google_routes_answer_501_when_no_client_id_is_configured,
    |backend| async move {
        let app = spawn_app(backend).await;
        assert!(app.settings.google.client_id.is_empty());
        let detail = "Google sign-in is not configured on this server";

        let (status, body) = app
            .call(Method::GET, "/identity/auth/google", None, None)
            .await;
        assert_eq!(status, 501);
        assert_eq!(body["detail"], detail);
        assert_eq!(body["code"], "not_implemented");
        let (status, body) = app
            .call(
                Method::GET,
                "/identity/auth/google/callback?code=x&state=y",
                None,
                None,
            )
            .await;
        assert_eq!(status, 501);
        assert_eq!(body["detail"], detail);
        let (status, body) = mobile(&app, "anything").await;
        assert_eq!(status, 501);
        assert_eq!(body["detail"], detail);
        assert_eq!(body["code"], "not_implemented");

        let (status, body) = app
            .call(Method::GET, "/identity/auth/google/config", None, None)
            .await;
        assert_eq!((status, body), (200, json!({"enabled": false})));
    }
);
