//! Google sign-in from the mobile app (an ID token exchanged for a session), and a Google
//! account meeting a password account of the same email; the fake issuer is `google`'s.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};

use crate::both_backends;
use crate::google::*;
use crate::helpers::*;

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
    the_mobile_flow_gives_a_new_account_the_apps_language,
    |backend| async move {
        let google = FakeGoogle::start();
        let app = spawn_with_google(backend, &google).await;
        let token = google.id_token("google-sub-lang", "lang.user@example.com");
        let (status, body) = app
            .post(
                "/identity/auth/google/mobile",
                json!({"token": token, "language": "de"}),
                None,
            )
            .await;
        assert_eq!(status, 422, "{body}");
        let (status, body) = app
            .post(
                "/identity/auth/google/mobile",
                json!({"token": token, "language": "ar"}),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (_, profile) = app
            .get("/identity/users/profile", &session_of(&body).access)
            .await;
        assert_eq!(profile["language"], "ar");
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
