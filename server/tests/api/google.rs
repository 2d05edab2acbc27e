//! Google sign-in against a fake OAuth/OIDC issuer that each test starts on 127.0.0.1: its own
//! RSA key (`fixtures/fake_google_rsa.pem`, test-only), a JWKS and a token endpoint.

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
const FAKE_GOOGLE_KEY: &str = include_str!("fixtures/fake_google_rsa.pem");
const KID: &str = "fake-google-key-1";
const ISSUER: &str = "https://accounts.fake-google.test";
const CLIENT_ID: &str = "parley-test.apps.fake-google.test";
const CLIENT_SECRET: &str = "fake-client-secret";

/// What the fake issuer remembers.
#[derive(Default)]
struct FakeState {
    /// The ID token the token endpoint answers for each authorization code.
    tokens_by_code: Mutex<HashMap<String, String>>,
    /// Every form posted to the token endpoint.
    exchanges: Mutex<Vec<HashMap<String, String>>>,
    /// How often the key set was fetched.
    jwks_fetches: Mutex<u32>,
}

struct FakeGoogle {
    base: String,
    state: Arc<FakeState>,
    key: EncodingKey,
}

impl FakeGoogle {
    /// Starts the issuer on a random port.
    fn start() -> FakeGoogle {
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
    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(KID.into());
        jsonwebtoken::encode(&header, claims, &self.key).expect("id token signs")
    }

    /// A valid ID token for this Google account.
    fn id_token(&self, sub: &str, email: &str) -> String {
        self.sign(&claims(sub, email))
    }

    /// Makes the token endpoint answer `id_token` for `code`.
    fn grant(&self, code: &str, id_token: String) {
        self.state
            .tokens_by_code
            .lock()
            .expect("lock")
            .insert(code.into(), id_token);
    }

    fn exchanges(&self) -> Vec<HashMap<String, String>> {
        self.state.exchanges.lock().expect("lock").clone()
    }
}

/// The token endpoint: a known code gets its ID token, anything else `invalid_grant`.
async fn token_endpoint(
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
fn fixture_encoding_key() -> EncodingKey {
    let private = rsa::RsaPrivateKey::from_pkcs1_pem(FAKE_GOOGLE_KEY).expect("fixture key");
    EncodingKey::from_rsa_der(private.to_pkcs1_der().expect("DER").as_bytes())
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// The claims Google puts in an ID token for a verified account.
fn claims(sub: &str, email: &str) -> Value {
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
async fn spawn_with_google(backend: Backend, google: &FakeGoogle) -> TestApp {
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

async fn mobile(app: &TestApp, token: &str) -> (u16, Value) {
    app.post(
        "/identity/auth/google/mobile",
        json!({"token": token}),
        None,
    )
    .await
}

/// A redirect's target, parsed.
fn location(response: &reqwest::Response) -> url::Url {
    let raw = response
        .headers()
        .get("Location")
        .and_then(|v| v.to_str().ok())
        .expect("a Location header");
    url::Url::parse(raw).expect("Location is a URL")
}

fn query_of(url: &url::Url) -> HashMap<String, String> {
    url.query_pairs().into_owned().collect()
}

/// `name=value` of the `Set-Cookie` header for `name`, and its attributes.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<(String, String)> {
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
async fn start_browser_flow(app: &TestApp) -> (String, String) {
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

async fn callback(app: &TestApp, query: &str, cookie: Option<&str>) -> reqwest::Response {
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

both_backends!(
    the_browser_flow_signs_in_and_returns_to_the_app_with_tokens,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (status, body) = app
            .call(Method::GET, "/identity/auth/google/config", None, None)
            .await;
        assert_eq!((status, body), (200, json!({"enabled": true})));

        // Start: off to the consent page, with the state bound to this browser by a cookie.
        let response = app
            .client
            .get(app.url("/identity/auth/google"))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 302);
        let target = location(&response);
        assert_eq!(
            target.as_str().split('?').next(),
            Some(app.settings.google.auth_url.as_str())
        );
        let query = query_of(&target);
        let redirect_uri = format!("{}/identity/auth/google/callback", app.address);
        assert_eq!(query["client_id"], CLIENT_ID);
        assert_eq!(query["redirect_uri"], redirect_uri);
        assert_eq!(query["response_type"], "code");
        assert_eq!(query["scope"], "openid email profile");
        let state = query["state"].clone();
        assert!(state.len() >= 32, "{state}");
        let (cookie_value, attributes) =
            set_cookie(&response, "parley_oauth_state").expect("a state cookie");
        assert_eq!(cookie_value, state);
        assert!(attributes.contains("HttpOnly"), "{attributes}");
        assert!(
            attributes.contains("Path=/identity/auth/google"),
            "{attributes}"
        );
        assert!(attributes.contains("SameSite=Lax"), "{attributes}");
        // The app is served over http here; Secure would make the browser drop the cookie.
        assert!(!attributes.contains("Secure"), "{attributes}");

        // Google sends the browser back with a code; the server exchanges it.
        google.grant(
            "code-1",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let cookie = format!("parley_oauth_state={state}");
        let response = callback(&app, &format!("code=code-1&state={state}"), Some(&cookie)).await;
        assert_eq!(response.status().as_u16(), 302);
        let back = location(&response);
        assert_eq!(back.path(), "/whatsapp");
        assert!(
            back.as_str()
                .starts_with(&format!("{}/whatsapp?", app.address))
        );
        let tokens = query_of(&back);
        assert_eq!(tokens["role"], "admin");
        // The state cookie is spent.
        let (cleared, attributes) =
            set_cookie(&response, "parley_oauth_state").expect("the cookie is cleared");
        assert_eq!(cleared, "");
        assert!(attributes.contains("Max-Age=0"), "{attributes}");

        let exchanges = google.exchanges();
        assert_eq!(exchanges.len(), 1);
        assert_eq!(exchanges[0]["code"], "code-1");
        assert_eq!(exchanges[0]["client_id"], CLIENT_ID);
        assert_eq!(exchanges[0]["client_secret"], CLIENT_SECRET);
        assert_eq!(exchanges[0]["redirect_uri"], redirect_uri);
        assert_eq!(exchanges[0]["grant_type"], "authorization_code");

        // The tokens work: a new business and its owner, with sandbox credentials.
        let (status, body) = app
            .get("/api/auth/protected-route", &tokens["accessToken"])
            .await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        let (status, profile) = app
            .get("/identity/users/profile", &tokens["accessToken"])
            .await;
        assert_eq!(status, 200);
        assert_eq!(profile["email"], "gwen@example.com");
        assert_eq!(profile["firstName"], "Gwen");
        assert_eq!(profile["lastName"], "Stacy");
        assert!(
            profile["username"]
                .as_str()
                .is_some_and(|u| u.starts_with("gwen"))
        );
        assert!(
            profile["phoneNumberId"]
                .as_str()
                .is_some_and(|p| !p.is_empty())
        );
        let (status, _) = app
            .post(
                "/identity/auth/refresh",
                json!({"refreshToken": tokens["refreshToken"]}),
                None,
            )
            .await;
        assert_eq!(status, 200);

        // Signing in again with the same Google account reaches the same user.
        let (state, cookie) = start_browser_flow(&app).await;
        google.grant(
            "code-2",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let response = callback(&app, &format!("code=code-2&state={state}"), Some(&cookie)).await;
        let again = query_of(&location(&response));
        let (_, second) = app
            .get("/identity/users/profile", &again["accessToken"])
            .await;
        assert_eq!(second["_id"], profile["_id"]);
    }
);

both_backends!(
    a_callback_without_the_browsers_state_returns_to_login_with_an_error,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        google.grant(
            "code-1",
            google.id_token("google-sub-1", "gwen@example.com"),
        );
        let (state, cookie) = start_browser_flow(&app).await;
        let failed = format!("{}/login?error=google_sign_in_failed", app.address);

        let attempts = [
            // A state that is not the one this browser was given.
            (format!("code=code-1&state={state}x"), Some(cookie.clone())),
            // The right state, but a browser that never started the flow (a forged link).
            (format!("code=code-1&state={state}"), None),
            // No state at all.
            ("code=code-1".to_string(), Some(cookie.clone())),
            // An empty cookie and an empty state.
            (
                "code=code-1&state=".to_string(),
                Some("parley_oauth_state=".to_string()),
            ),
            // Google reports an error instead of a code (the user declined).
            (
                format!("error=access_denied&state={state}"),
                Some(cookie.clone()),
            ),
        ];
        for (query, cookie) in attempts {
            let response = callback(&app, &query, cookie.as_deref()).await;
            assert_eq!(response.status().as_u16(), 302, "{query}");
            assert_eq!(location(&response).as_str(), failed, "{query}");
            assert!(response.headers().get("Location").is_some());
        }
        // None of those reached the token endpoint.
        assert!(google.exchanges().is_empty());
    }
);

both_backends!(
    a_failed_code_exchange_returns_to_login_with_an_error,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (state, cookie) = start_browser_flow(&app).await;
        let failed = format!("{}/login?error=google_sign_in_failed", app.address);

        // The issuer refuses the code.
        let response = callback(&app, &format!("code=unknown&state={state}"), Some(&cookie)).await;
        assert_eq!(response.status().as_u16(), 302);
        assert_eq!(location(&response).as_str(), failed);
        assert_eq!(google.exchanges().len(), 1);

        // The issuer answers a token that does not verify (another audience).
        let mut wrong = claims("google-sub-1", "gwen@example.com");
        wrong["aud"] = json!("someone-elses-client");
        google.grant("code-2", google.sign(&wrong));
        let response = callback(&app, &format!("code=code-2&state={state}"), Some(&cookie)).await;
        assert_eq!(location(&response).as_str(), failed);
        assert!(
            !location(&response).as_str().contains("accessToken"),
            "no tokens on failure"
        );
    }
);

both_backends!(
    the_mobile_flow_exchanges_a_valid_id_token_for_a_session,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let (status, body) = mobile(
            &app,
            &google.id_token("google-sub-9", "Mobile.User@Example.com"),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["role"], "admin");
        let session = session_of(&body);
        let (status, profile) = app.get("/identity/users/profile", &session.access).await;
        assert_eq!(status, 200);
        assert_eq!(profile["email"], "mobile.user@example.com");
        assert!(
            profile["username"]
                .as_str()
                .is_some_and(|u| u.starts_with("mobileuser"))
        );
        assert_eq!(
            app.post(
                "/identity/auth/refresh",
                json!({"refreshToken": session.refresh}),
                None
            )
            .await
            .0,
            200
        );

        // Again: the same account, not a second business.
        let (status, body) = mobile(
            &app,
            &google.id_token("google-sub-9", "mobile.user@example.com"),
        )
        .await;
        assert_eq!(status, 200);
        let (_, again) = app
            .get("/identity/users/profile", &session_of(&body).access)
            .await;
        assert_eq!(again["_id"], profile["_id"]);

        // Google has sent email_verified as a string too.
        let mut text_flag = claims("google-sub-10", "text.flag@example.com");
        text_flag["email_verified"] = json!("true");
        let (status, body) = mobile(&app, &google.sign(&text_flag)).await;
        assert_eq!(status, 200, "{body}");

        let (status, body) = app
            .post("/identity/auth/google/mobile", json!({}), None)
            .await;
        assert_eq!(status, 422);
        assert_eq!(body["detail"], "token is required");
        // The keys were fetched once and then cached.
        assert_eq!(*google.state.jwks_fetches.lock().expect("lock"), 1);
    }
);

both_backends!(
    a_google_account_with_a_password_accounts_email_signs_into_that_account,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let owner = app.register("gwen").await;
        let (_, profile) = app.get("/identity/users/profile", &owner.access).await;

        let (status, body) =
            mobile(&app, &google.id_token("google-sub-1", "GWEN@example.com")).await;
        assert_eq!(status, 200, "{body}");
        let (_, linked) = app
            .get("/identity/users/profile", &session_of(&body).access)
            .await;
        assert_eq!(linked["_id"], profile["_id"]);
        // The password still works.
        assert_eq!(app.login("gwen", "correct horse").await.0, 200);

        // The account is now linked to that Google identity; another one with the same email
        // address does not get in.
        let (status, body) =
            mobile(&app, &google.id_token("google-sub-2", "gwen@example.com")).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["detail"], "Email already exists");
    }
);

both_backends!(
    the_mobile_flow_refuses_tokens_that_do_not_verify_with_401,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let now = now_secs();
        let with = |field: &str, value: Value| {
            let mut claims = claims("google-sub-1", "gwen@example.com");
            claims[field] = value;
            claims
        };
        let without = |field: &str| {
            let mut claims = claims("google-sub-1", "gwen@example.com");
            claims.as_object_mut().expect("object").remove(field);
            claims
        };

        let valid = google.id_token("google-sub-1", "gwen@example.com");
        let (header, rest) = valid.split_once('.').expect("a JWT");
        let (_, signature) = rest.split_once('.').expect("a JWT");
        // A payload changed after signing: the signature no longer matches.
        let tampered = format!(
            "{header}.{}.{signature}",
            URL_SAFE_NO_PAD.encode(with("sub", json!("google-sub-other")).to_string())
        );
        // The right claims signed with HS256 and the public key's modulus as secret (algorithm
        // confusion) must not pass either.
        let private = rsa::RsaPrivateKey::from_pkcs1_pem(FAKE_GOOGLE_KEY).expect("fixture key");
        let mut hs_header = Header::new(Algorithm::HS256);
        hs_header.kid = Some(KID.into());
        let confused = jsonwebtoken::encode(
            &hs_header,
            &claims("google-sub-1", "gwen@example.com"),
            &EncodingKey::from_secret(&private.n().to_bytes_be()),
        )
        .expect("signs");
        let mut unknown_kid_header = Header::new(Algorithm::RS256);
        unknown_kid_header.kid = Some("some-other-key".into());
        let unknown_kid = jsonwebtoken::encode(
            &unknown_kid_header,
            &claims("google-sub-1", "gwen@example.com"),
            &fixture_encoding_key(),
        )
        .expect("signs");

        let refused = [
            (
                "wrong audience",
                google.sign(&with("aud", json!("another-client"))),
                "Invalid Google token",
            ),
            (
                "expired",
                google.sign(&with("exp", json!(now - 3600))),
                "Invalid Google token",
            ),
            (
                "wrong issuer",
                google.sign(&with("iss", json!("https://evil.example"))),
                "Invalid Google token",
            ),
            (
                "no audience",
                google.sign(&without("aud")),
                "Invalid Google token",
            ),
            (
                "no issuer",
                google.sign(&without("iss")),
                "Invalid Google token",
            ),
            (
                "no expiry",
                google.sign(&without("exp")),
                "Invalid Google token",
            ),
            (
                "unverified email",
                google.sign(&with("email_verified", json!(false))),
                "Google account email is not verified",
            ),
            (
                "no email",
                google.sign(&without("email")),
                "Google account email is not verified",
            ),
            ("bad signature", tampered, "Invalid Google token"),
            (
                "HS256 with the public key",
                confused,
                "Invalid Google token",
            ),
            ("unknown key id", unknown_kid, "Invalid Google token"),
            ("not a JWT", "garbage".to_string(), "Invalid Google token"),
        ];
        for (case, token, detail) in refused {
            let (status, body) = mobile(&app, &token).await;
            assert_eq!(status, 401, "{case}: {body}");
            assert_eq!(body["detail"], detail, "{case}");
            assert_eq!(body["code"], "unauthorized", "{case}");
        }
        // None of them made an account.
        assert_eq!(
            app.login("gwen@example.com", "anything at all").await.0,
            401
        );
        let (status, _) = mobile(&app, &valid).await;
        assert_eq!(status, 200);
        // The unknown key id did not refetch the key set fetched a moment ago.
        assert_eq!(*google.state.jwks_fetches.lock().expect("lock"), 1);
    }
);
