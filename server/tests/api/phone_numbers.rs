//! Phone numbers as people write them: contacts, the sender's single number and recipient files
//! keep E.164 digits; the region of numbers without a country code is the business's own.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

async fn add_contact(app: &TestApp, token: &str, phone: &str) -> (u16, Value) {
    let contact = json!({"name": "Omar", "phone_number": phone});
    app.post("/api/contacts/add", contact, Some(token)).await
}

pub async fn set_business_number(app: &TestApp, token: &str, number: &str) {
    let (status, profile) = app
        .call(
            reqwest::Method::PATCH,
            "/identity/users/profile",
            Some(json!({"phoneNumber": number})),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{profile}");
}

both_backends!(
    contacts_take_numbers_in_every_usual_writing,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("writer").await.access;
        // A sandbox business has a +1 555 number: numbers without a country code are American.
        let (_, config) = app.get("/api/config", &token).await;
        assert_eq!(config["defaultRegion"], "US");
        for (written, kept) in [
            ("+44 7700 900123", "447700900123"),
            ("(555) 010-0002", "15550100002"),
            ("00966 50 123 4567", "966501234567"),
            ("+٤٤ ٧٧٠٠ ٩٠٠١٢٤", "447700900124"),
            ("۰۰۹۶۶۵۰۱۲۳۴۵۶۸", "966501234568"),
            ("201001234567", "201001234567"),
        ] {
            let (status, body) = add_contact(&app, &token, written).await;
            assert_eq!(status, 201, "{written}: {body}");
            assert_eq!(body["phone_number"], kept, "{written}");
        }
        let (status, body) = add_contact(&app, &token, "+1 555").await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "validation_failed");
        assert!(
            body["detail"]
                .as_str()
                .expect("detail")
                .starts_with("'+1 555' is not a valid phone number"),
            "{body}"
        );
        let import = json!({"contacts": [
            {"name": "A", "phone_number": "+44 7700 900125"},
            {"name": "B", "phone_number": "12"},
        ]});
        let (status, body) = app.post("/api/contacts/import", import, Some(&token)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            json!({"added": 1, "updated": 0, "unchanged": 0, "skipped": 1}),
            "the valid number is read as typed and the invalid one skipped"
        );
        let (_, list) = app
            .get("/api/users?search_query=447700900125", &token)
            .await;
        assert_eq!(list["data"]["users"][0]["name"], "A", "{list}");
        // A customer known only by BSUID is still named by it.
        let (status, body) = add_contact(&app, &token, "US.13491208655302741918").await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["phone_number"], "US.13491208655302741918");
    }
);

both_backends!(
    numbers_without_a_country_code_follow_the_business_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("londoner").await.access;
        set_business_number(&app, &token, "+44 20 7946 0000").await;
        let (_, config) = app.get("/api/config", &token).await;
        assert_eq!(config["defaultRegion"], "GB");
        let (status, body) = add_contact(&app, &token, "07700 900123").await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["phone_number"], "447700900123");

        let csv = "PhoneNumber\n07700 900126\n0770 09\n";
        let form = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("uk.csv"),
        );
        let (status, body) = app.post_form("/api/recipients/parse", &token, form).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["numbers"], json!(["447700900126"]));
        assert_eq!(
            body["skipped"]["rows"],
            json!([{"row": 3, "value": "0770 09", "reason": "invalid_number"}])
        );
    }
);
