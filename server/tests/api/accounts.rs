//! One WhatsApp account, one business: a WABA id or phone number id another business holds is
//! refused with 409 naming it, and the sandbox keeps each account's templates apart.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

async fn profile(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.get("/identity/users/profile", token).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn patch_profile(app: &TestApp, token: &str, change: Value) -> (u16, Value) {
    app.call(
        reqwest::Method::PATCH,
        "/identity/users/profile",
        Some(change),
        Some(token),
    )
    .await
}

both_backends!(
    a_business_cannot_claim_another_business_s_account_or_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("first").await;
        let second = app.register("second").await;
        let theirs = profile(&app, &first.access).await;
        let mine = profile(&app, &second.access).await;

        let claim = json!({"whatsappBusinessAccountID": theirs["whatsappBusinessAccountID"]});
        let (status, body) = patch_profile(&app, &second.access, claim).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "waba_id_taken");
        assert_eq!(body["field"], "whatsappBusinessAccountID");
        assert_eq!(
            body["message"],
            "This whatsappBusinessAccountID is already used by another business"
        );

        let claim = json!({"phoneNumberId": theirs["phoneNumberId"]});
        let (status, body) = patch_profile(&app, &second.access, claim).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "phone_number_id_taken");
        assert_eq!(body["field"], "phoneNumberId");

        let after = profile(&app, &second.access).await;
        assert_eq!(
            after["whatsappBusinessAccountID"],
            mine["whatsappBusinessAccountID"]
        );
        assert_eq!(after["phoneNumberId"], mine["phoneNumberId"]);

        // Blank ids name no account: any number of businesses may have none.
        let none = json!({"whatsappBusinessAccountID": "", "phoneNumberId": ""});
        for session in [&first, &second] {
            let (status, body) = patch_profile(&app, &session.access, none.clone()).await;
            assert_eq!(status, 200, "{body}");
        }
        // Released, the account may be taken by the other business.
        let claim = json!({"whatsappBusinessAccountID": theirs["whatsappBusinessAccountID"]});
        let (status, body) = patch_profile(&app, &second.access, claim).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    each_business_lists_only_its_own_account_s_templates,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("tmplfirst").await;
        let second = app.register("tmplsecond").await;
        let template = json!({"name": "first_only", "language": "en_US", "category": "UTILITY",
                              "components": [{"type": "BODY", "text": "Hello"}]});
        let (status, body) = app.create_template(&first.access, &template).await;
        assert_eq!(status, 200, "{body}");

        let names = |list: &Value| -> Vec<String> {
            list.as_array()
                .expect("templates")
                .iter()
                .filter_map(|t| t["name"].as_str().map(String::from))
                .collect()
        };
        let (status, list) = app.get("/api/templates", &first.access).await;
        assert_eq!(status, 200, "{list}");
        assert_eq!(names(&list), vec!["first_only"]);

        let theirs = profile(&app, &first.access).await;
        let claim = json!({"whatsappBusinessAccountID": theirs["whatsappBusinessAccountID"]});
        let (status, _) = patch_profile(&app, &second.access, claim).await;
        assert_eq!(status, 409);
        let (status, list) = app.get("/api/templates", &second.access).await;
        assert_eq!(status, 200, "{list}");
        assert!(names(&list).is_empty(), "{list}");
    }
);

both_backends!(
    a_refused_profile_change_stores_none_of_its_fields,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("wholefirst").await;
        let second = app.register("wholesecond").await;
        let theirs = profile(&app, &first.access).await;
        let before = profile(&app, &second.access).await;

        let long_name = json!({"lastName": "x".repeat(101), "phoneNumberId": "a-fresh-number-id",
                               "assignment_mode": "round_robin"});
        let (status, body) = patch_profile(&app, &second.access, long_name).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(profile(&app, &second.access).await, before);

        let taken = json!({"assignment_mode": "round_robin", "firstName": "Renamed",
                           "whatsappBusinessAccountID": theirs["whatsappBusinessAccountID"]});
        let (status, body) = patch_profile(&app, &second.access, taken).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(profile(&app, &second.access).await, before);
    }
);

both_backends!(
    a_provider_id_longer_than_64_characters_is_refused_naming_its_field,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("longids").await;
        let before = profile(&app, &owner.access).await;
        // Far longer ones are refused too, where Postgres failed with 500 on its index.
        let long = "9".repeat(65);
        for field in ["phoneNumberId", "whatsappBusinessAccountID"] {
            let (status, body) = patch_profile(&app, &owner.access, json!({field: long})).await;
            assert_eq!(status, 422, "{field}: {body}");
            assert_eq!(
                body["detail"],
                format!("{field} must be at most 64 characters")
            );
        }
        assert_eq!(profile(&app, &owner.access).await, before);
        let (status, body) = patch_profile(
            &app,
            &owner.access,
            json!({"whatsappBusinessAccountID": "7".repeat(64)}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
);
