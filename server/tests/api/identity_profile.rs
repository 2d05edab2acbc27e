//! The profile: reading and changing it, the provider credentials and what agents never see.

use reqwest::Method;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::identity::*;

both_backends!(
    the_owners_profile_shows_the_sandbox_credentials_given_at_registration,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("trent").await;
        let (status, profile) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["username"], "trent");
        assert_eq!(profile["email"], "trent@example.com");
        assert_eq!(profile["firstName"], "Test");
        assert_eq!(profile["lastName"], "trent");
        assert_eq!(profile["role"], "admin");
        assert_eq!(profile["language"], "en");
        for field in CREDENTIAL_FIELDS {
            assert!(
                profile[field].as_str().is_some_and(|v| !v.is_empty()),
                "{field} missing: {profile}"
            );
        }
        assert_eq!(profile["appSecretSet"], true);
        assert!(profile.get("appSecret").is_none(), "{profile}");
        assert!(profile.get("password_hash").is_none() && profile.get("passwordHash").is_none());
    }
);

both_backends!(
    the_owner_patches_credentials_and_names_and_the_app_secret_stays_write_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("uma").await;
        let secret = "a-very-secret-app-secret";
        let (status, profile) = patch(
            &app,
            "/identity/users/profile",
            json!({
                "firstName": "Uma",
                "lastName": "Thurman",
                "phoneNumberId": " 109876543210 ",
                "accessToken": "EAAG-new-token",
                "verifyToken": "verify-me",
                "phoneNumber": "+1 555 0100",
                "whatsappBusinessAccountID": "waba-42",
                "appId": "app-7",
                "appSecret": secret,
                "language": "ar",
            }),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["firstName"], "Uma");
        assert_eq!(profile["lastName"], "Thurman");
        assert_eq!(profile["phoneNumberId"], "109876543210");
        assert_eq!(profile["accessToken"], "EAAG-new-token");
        assert_eq!(profile["verifyToken"], "verify-me");
        assert_eq!(profile["phoneNumber"], "1 555 0100");
        assert_eq!(profile["whatsappBusinessAccountID"], "waba-42");
        assert_eq!(profile["appId"], "app-7");
        assert_eq!(profile["language"], "ar");
        assert_eq!(profile["appSecretSet"], true);
        assert!(!profile.to_string().contains(secret), "{profile}");

        // A GET agrees, and an empty appSecret in a later form leaves the secret alone.
        let (status, again) = patch(
            &app,
            "/identity/users/profile",
            json!({"appSecret": "", "firstName": "  "}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200);
        let (_, fetched) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(again, fetched);
        assert_eq!(fetched["firstName"], "Uma");
        assert_eq!(fetched["appSecretSet"], true);
        assert!(!fetched.to_string().contains(secret));

        let (status, body) = patch(
            &app,
            "/identity/users/profile",
            json!({"language": "fr"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "language must be en or ar");
    }
);

both_backends!(
    an_agent_cannot_patch_credentials_and_does_not_see_the_access_token,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("victor").await;
        create_agent(&app, &owner, "victor-agent").await;
        let agent = login_session(&app, "victor-agent", PASSWORD).await;
        let (_, owner_profile) = app.get("/identity/users/profile", &owner.access).await;

        let (status, profile) = app.get("/identity/users/profile", &agent.access).await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["role"], "agent");
        assert_eq!(profile["username"], "victor-agent");
        // The agent works the owner's number but does not hold its secrets.
        assert_eq!(profile["phoneNumberId"], owner_profile["phoneNumberId"]);
        for hidden in ["accessToken", "verifyToken", "appSecretSet", "appSecret"] {
            assert!(profile.get(hidden).is_none(), "{hidden}: {profile}");
        }
        let owner_token = owner_profile["accessToken"].as_str().expect("token");
        assert!(!profile.to_string().contains(owner_token));

        for change in [
            json!({"accessToken": "stolen"}),
            json!({"phoneNumberId": "1"}),
            json!({"appSecret": "x"}),
            json!({"firstName": "Sneaky", "verifyToken": "x"}),
        ] {
            let (status, body) =
                patch(&app, "/identity/users/profile", change, &agent.access).await;
            assert_eq!(status, 403, "{body}");
            assert_error(&body, "forbidden", "Only the account owner can do this");
        }
        let (_, unchanged) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(unchanged, owner_profile);

        // Names and language are the agent's own to change.
        let (status, profile) = patch(
            &app,
            "/identity/users/profile",
            json!({"firstName": "Vic", "language": "ar"}),
            &agent.access,
        )
        .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["firstName"], "Vic");
        assert_eq!(profile["language"], "ar");
        let (_, owner_after) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(owner_after["firstName"], "Test");
    }
);

both_backends!(
    a_phone_number_id_of_another_business_is_a_409,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("walter").await;
        let beta = app.register("xena").await;
        let (_, alpha_profile) = app.get("/identity/users/profile", &alpha.access).await;
        let (_, beta_before) = app.get("/identity/users/profile", &beta.access).await;
        let (status, body) = patch(
            &app,
            "/identity/users/profile",
            json!({"phoneNumberId": alpha_profile["phoneNumberId"]}),
            &beta.access,
        )
        .await;
        assert_eq!(status, 409, "{body}");
        assert_error(
            &body,
            "phone_number_id_taken",
            "This phoneNumberId is already used by another business",
        );
        let (_, beta_after) = app.get("/identity/users/profile", &beta.access).await;
        assert_eq!(beta_after, beta_before);
        // Setting one's own number again is no conflict.
        let (status, _) = patch(
            &app,
            "/identity/users/profile",
            json!({"phoneNumberId": beta_before["phoneNumberId"]}),
            &beta.access,
        )
        .await;
        assert_eq!(status, 200);
    }
);

both_backends!(
    the_user_profile_reports_the_language_and_toggling_flips_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("yara").await;
        let (status, user) = app.get("/api/users/profile", &owner.access).await;
        assert_eq!(status, 200);
        assert_eq!(user["language"], "en");
        assert_eq!(user["username"], "yara");
        assert_eq!(user["role"], "admin");
        assert!(user.get("password_hash").is_none());

        for expected in ["ar", "en", "ar"] {
            let (status, body) = app
                .call(
                    Method::PATCH,
                    "/api/users/toggle-language",
                    None,
                    Some(&owner.access),
                )
                .await;
            assert_eq!((status, body), (200, json!({"language": expected})));
            let (_, user) = app.get("/api/users/profile", &owner.access).await;
            assert_eq!(user["language"], expected);
        }
        let (status, _) = app
            .call(Method::PATCH, "/api/users/toggle-language", None, None)
            .await;
        assert_eq!(status, 401);
    }
);
