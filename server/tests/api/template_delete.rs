//! `DELETE /api/templates/{name}`: gone at the provider (the sandbox's list) and here, and only
//! for the business that owns it.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sandbox::provider_token;

fn greeting(name: &str, language: &str) -> Value {
    json!({"name": name, "language": language, "category": "MARKETING",
        "components": [{"type": "BODY", "text": "Welcome to our shop"}]})
}

impl TestApp {
    /// The names in the provider's own list of the business's templates.
    async fn provider_template_names(&self, biz: &Business) -> Vec<String> {
        let (_, profile) = self
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let waba = profile["whatsappBusinessAccountID"].as_str().expect("waba");
        let token = provider_token(self, biz).await;
        let (status, page) = self
            .get(&format!("/sandbox/v21.0/{waba}/message_templates"), &token)
            .await;
        assert_eq!(status, 200, "{page}");
        page["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_string())
            .collect()
    }

    async fn delete_template(&self, biz: &Business, name: &str) -> (u16, Value) {
        self.call(
            reqwest::Method::DELETE,
            &format!("/api/templates/{name}"),
            None,
            Some(&biz.session.access),
        )
        .await
    }
}

both_backends!(
    a_deleted_template_is_gone_from_the_provider_and_the_list,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("tpl_delete").await;
        for template in [
            greeting("spring_sale", "en_US"),
            greeting("spring_sale", "ar"),
            greeting("winter_sale", "en_US"),
        ] {
            let (status, body) = app.create_template(&biz.session.access, &template).await;
            assert_eq!(status, 200, "{body}");
        }

        let (status, body) = app.delete_template(&biz, "spring_sale").await;

        assert_eq!(status, 200, "{body}");
        assert_eq!(body["name"], "spring_sale");
        assert_eq!(app.provider_template_names(&biz).await, ["winter_sale"]);
        let (_, list) = app.get("/api/templates", &biz.session.access).await;
        let names: Vec<&Value> = list
            .as_array()
            .expect("list")
            .iter()
            .map(|t| &t["name"])
            .collect();
        assert_eq!(names, [&json!("winter_sale")]);
    }
);

both_backends!(
    deleting_an_unknown_template_is_not_found,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("tpl_unknown").await;

        let (status, body) = app.delete_template(&biz, "never_made").await;

        assert_eq!(status, 404, "{body}");
        assert_eq!(body["code"], "not_found", "{body}");
        assert!(
            body["detail"]
                .as_str()
                .expect("detail")
                .contains("never_made")
        );
    }
);

both_backends!(
    another_business_cannot_delete_a_template,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.business("tpl_owner").await;
        let other = app.business("tpl_other").await;
        let (status, body) = app
            .create_template(&owner.session.access, &greeting("loyalty_note", "en_US"))
            .await;
        assert_eq!(status, 200, "{body}");

        let (status, body) = app.delete_template(&other, "loyalty_note").await;

        assert_eq!(status, 404, "{body}");
        assert_eq!(app.provider_template_names(&owner).await, ["loyalty_note"]);
    }
);
