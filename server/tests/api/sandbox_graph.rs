//! The sandbox answers like Graph: the phone number object, the business profile, paged
//! template lists, and Graph's error shape for every route it does not have.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sandbox::provider_token;

/// Graph's error body: message, type, code and a trace id.
fn assert_graph_error(answer: &Value, code: i64) {
    let error = &answer["error"];
    assert_eq!(error["code"], code, "{answer}");
    assert!(error["message"].is_string(), "{answer}");
    assert!(error["type"].is_string(), "{answer}");
    assert!(error["fbtrace_id"].is_string(), "{answer}");
}

both_backends!(
    the_phone_number_object_describes_the_number_with_the_fields_asked,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("number_object").await;
        let token = provider_token(&app, &biz).await;
        let path = format!("/sandbox/v21.0/{}", biz.phone_number_id);

        let (status, number) = app.get(&path, &token).await;
        assert_eq!(status, 200, "{number}");
        assert_eq!(number["id"], biz.phone_number_id.as_str());
        assert!(
            number["display_phone_number"]
                .as_str()
                .is_some_and(|n| n.starts_with("+1 555-")),
            "{number}"
        );
        assert!(number["verified_name"].is_string(), "{number}");
        assert_eq!(number["quality_rating"], "GREEN");
        assert_eq!(number["platform_type"], "CLOUD_API");
        assert_eq!(number["throughput"], json!({"level": "STANDARD"}));

        let (_, few) = app
            .get(
                &format!("{path}?fields=quality_rating,verified_name"),
                &token,
            )
            .await;
        let mut names: Vec<&String> = few.as_object().expect("object").keys().collect();
        names.sort();
        assert_eq!(names, ["id", "quality_rating", "verified_name"]);
    }
);

both_backends!(
    another_business_number_is_an_unsupported_get,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("number_owner").await;
        let other = app.business("number_stranger").await;
        let stranger_token = provider_token(&app, &other).await;

        let (status, answer) = app
            .get(
                &format!("/sandbox/v21.0/{}", biz.phone_number_id),
                &stranger_token,
            )
            .await;
        assert_eq!(status, 400, "{answer}");
        assert_graph_error(&answer, 100);
        assert_eq!(answer["error"]["error_subcode"], 33, "{answer}");
        let (status, _) = app
            .get(
                &format!(
                    "/sandbox/v21.0/{}/whatsapp_business_profile",
                    biz.phone_number_id
                ),
                &stranger_token,
            )
            .await;
        assert_eq!(status, 401);
    }
);

both_backends!(
    the_business_profile_reads_back_what_was_set,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("profile").await;
        let token = provider_token(&app, &biz).await;
        let path = format!(
            "/sandbox/v21.0/{}/whatsapp_business_profile",
            biz.phone_number_id
        );

        let (status, fresh) = app.get(&path, &token).await;
        assert_eq!(status, 200, "{fresh}");
        assert_eq!(fresh["data"][0]["messaging_product"], "whatsapp");
        assert_eq!(fresh["data"][0]["vertical"], "UNDEFINED");

        let update = json!({"messaging_product": "whatsapp", "about": "Fresh bread daily",
                            "email": "shop@example.com", "vertical": "RETAIL",
                            "websites": ["https://example.com"]});
        let (status, answer) = app.post(&path, update, Some(&token)).await;
        assert_eq!((status, answer), (200, json!({"success": true})));
        let (_, profile) = app.get(&path, &token).await;
        let profile = &profile["data"][0];
        assert_eq!(profile["about"], "Fresh bread daily");
        assert_eq!(profile["email"], "shop@example.com");
        assert_eq!(profile["vertical"], "RETAIL");
        assert_eq!(profile["websites"], json!(["https://example.com"]));

        let (status, refused) = app
            .post(
                &path,
                json!({"messaging_product": "whatsapp", "vertical": "SPACESHIPS"}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 400);
        assert_graph_error(&refused, 100);
    }
);

both_backends!(
    templates_are_listed_in_pages_with_a_summary_and_cursors,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("template_pages").await;
        let token = provider_token(&app, &biz).await;
        let waba_id = waba_of(&app, &biz).await;
        let path = format!("/sandbox/v21.0/{waba_id}/message_templates");
        for name in ["first", "second", "third"] {
            let template = json!({"name": name, "language": "en_US", "category": "UTILITY",
                                  "components": [{"type": "BODY", "text": "Hello"}]});
            let (status, created) = app.post(&path, template, Some(&token)).await;
            assert_eq!(status, 200, "{created}");
        }

        let (status, page) = app.get(&format!("{path}?limit=2"), &token).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["data"].as_array().expect("data").len(), 2);
        assert_eq!(page["data"][0]["name"], "first");
        assert_eq!(page["summary"]["total_count"], 3);
        let after = page["paging"]["cursors"]["after"].as_str().expect("after");
        assert!(page["paging"]["cursors"]["before"].is_string());
        let next = page["paging"]["next"].as_str().expect("next");
        assert!(next.starts_with(&app.address), "{next}");

        let rest: Value = app
            .client
            .get(next)
            .bearer_auth(&token)
            .send()
            .await
            .expect("next page")
            .json()
            .await
            .expect("json");
        assert_eq!(rest["data"].as_array().expect("data").len(), 1);
        assert_eq!(rest["data"][0]["name"], "third");
        assert!(rest["paging"].get("next").is_none(), "{rest}");
        let (_, same) = app
            .get(&format!("{path}?limit=2&after={after}"), &token)
            .await;
        assert_eq!(same["data"], rest["data"]);

        let (status, bad) = app.get(&format!("{path}?after=nonsense"), &token).await;
        assert_eq!(status, 400);
        assert_graph_error(&bad, 100);
    }
);

both_backends!(
    unknown_graph_routes_answer_graph_errors_and_others_parley_errors,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("unknown_routes").await;
        let token = provider_token(&app, &biz).await;
        let pnid = &biz.phone_number_id;

        let (status, edge) = app
            .get(&format!("/sandbox/v21.0/{pnid}/no_such_edge"), &token)
            .await;
        assert_eq!(status, 400, "{edge}");
        assert_graph_error(&edge, 100);
        assert_eq!(edge["error"]["error_subcode"], 33);
        let (status, deep) = app.get("/sandbox/v21.0/a/b/c", &token).await;
        assert_eq!(status, 400, "{deep}");
        assert_graph_error(&deep, 2500);
        let (status, method) = app
            .call(
                reqwest::Method::DELETE,
                &format!("/sandbox/v21.0/{pnid}/messages"),
                None,
                Some(&token),
            )
            .await;
        assert_eq!(status, 400, "{method}");
        assert_graph_error(&method, 100);
        let (status, post) = app
            .post(&format!("/sandbox/v21.0/{pnid}"), json!({}), Some(&token))
            .await;
        assert_eq!(status, 400, "{post}");
        assert_eq!(post["error"]["error_subcode"], 33, "{post}");

        let (status, parley) = app.get("/sandbox/no-such-thing", &token).await;
        assert_eq!(status, 404, "{parley}");
        assert_eq!(parley["code"], "not_found", "{parley}");
    }
);

/// The WhatsApp Business Account id of `biz`, as its profile shows it.
async fn waba_of(app: &TestApp, biz: &Business) -> String {
    let (_, profile) = app
        .get("/identity/users/profile", &biz.session.access)
        .await;
    profile["whatsappBusinessAccountID"]
        .as_str()
        .expect("waba id")
        .to_string()
}
