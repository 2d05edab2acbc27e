//! The OpenAPI 3.1 description of `/api` and `/identity`, gathered from each handler's
//! `#[utoipa::path]` and its types' `ToSchema`, served as JSON and as a page for people.

use std::sync::OnceLock;

use actix_web::HttpResponse;

use crate::api::docs_page;
use crate::api::openapi_links::{CustomerKeys, add_links};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The document: every route of `/api` and `/identity`.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Parley",
        description = "The business inbox API. Refusals answer `{detail, message, code}`; \
                       see docs/API.md for the prose."
    ),
    paths(
        crate::api::openapi::openapi_json,
        crate::api::openapi::docs_page,
        crate::api::health::alive,
        crate::api::health::report,
        crate::auth::handlers::protected_route,
        crate::auth::handlers::identity_protected_route,
        crate::auth::profile::get_user,
        crate::auth::profile::update_user,
        crate::auth::profile::toggle_language,
        crate::api::conversations::list_conversations,
        crate::api::team::tab_counts,
        crate::api::team::list_members,
        crate::api::search::search,
        crate::api::team::set_status,
        crate::api::team::set_assignment,
        crate::api::team::add_note,
        crate::api::team::post_presence,
        crate::api::labels::set_conversation_labels,
        crate::api::labels::list_labels,
        crate::api::labels::create_label,
        crate::api::labels::update_label,
        crate::api::labels::delete_label,
        crate::api::conversations::conversation_history,
        crate::api::conversations::mark_as_read,
        crate::api::ws::not_upgraded,
        crate::api::events::notifications_stream,
        crate::api::events::channel_stream,
        crate::api::events::close_stream,
        crate::api::messages::send_message,
        crate::api::messages::react_to_message,
        crate::api::sender::list_templates,
        crate::api::sender::send_template_message,
        crate::api::sender::get_job,
        crate::api::push::get_public_key,
        crate::api::push::subscribe_to_notifications,
        crate::api::push::unsubscribe_from_notifications,
        crate::api::messages::get_config,
        crate::api::messages::get_media,
        crate::api::media::share_media,
        crate::api::contacts::add_contact,
        crate::api::contacts::update_contact,
        crate::api::contacts::import_contacts,
        crate::api::contacts::delete_contact,
        crate::api::templates::create_template,
        crate::api::templates::delete_template,
        crate::api::recipients::parse_recipients,
        crate::api::recipients::recipients_sample,
        crate::api::replies::list_replies,
        crate::api::replies::create_reply,
        crate::api::replies::update_reply,
        crate::api::replies::delete_reply,
        crate::api::replies::list_flow_steps,
        crate::api::canned::list_canned_replies,
        crate::api::canned::create_canned_reply,
        crate::api::canned::update_canned_reply,
        crate::api::canned::delete_canned_reply,
        crate::api::reports::get_overview,
        crate::auth::handlers::register,
        crate::auth::handlers::login,
        crate::auth::handlers::refresh,
        crate::auth::handlers::logout,
        crate::auth::handlers::logout_all,
        crate::auth::google_sign_in::start,
        crate::auth::google_sign_in::callback,
        crate::auth::google_sign_in::mobile,
        crate::auth::google_sign_in::config,
        crate::auth::profile::get_profile,
        crate::auth::profile::update_profile,
        crate::auth::profile::list_agents,
        crate::auth::profile::create_agent,
        crate::auth::profile::update_agent,
        crate::auth::profile::delete_agent

    ),
    modifiers(&BearerToken, &CustomerKeys),
    tags(
        (name = "health", description = "Liveness and database reachability"),
        (name = "identity", description = "Sign-up, sign-in, tokens, profile and agents"),
        (name = "conversations", description = "The conversation list, history and mark-as-read"),
        (name = "team", description = "Status, assignment, notes, presence and tab counts"),
        (name = "labels", description = "The business's labels and a conversation's labels"),
        (name = "search", description = "Full-history search"),
        (name = "events", description = "WebSocket and server-sent events"),
        (name = "messages", description = "Sending messages and reactions"),
        (name = "media", description = "Media files and share links"),
        (name = "contacts", description = "Contacts: add, update, import, delete"),
        (name = "templates", description = "Templates, the template sender and recipient files"),
        (name = "replies", description = "Automated replies"),
        (name = "canned", description = "Canned replies"),
        (name = "push", description = "Web and native push subscriptions"),
        (name = "reports", description = "The owner's overview report"),
        (name = "docs", description = "This description")
    )
)]
pub struct ApiDoc;

/// The `bearer` scheme the secured routes name: an access JWT from `/identity/auth/login`.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The document, built once.
pub fn document() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        // The document is plain data built from derives; it always serialises.
        let mut document =
            serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serialises");
        add_links(&mut document);
        document.to_string()
    })
}

/// `GET /api/openapi.json`: this description, for programs.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "docs",
    responses((status = 200, description = "The OpenAPI 3.1 document", body = serde_json::Value))
)]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(document())
}

/// `GET /api/docs`: this description as a page for people, rendered here so it needs no script.
#[utoipa::path(
    get,
    path = "/api/docs",
    tag = "docs",
    responses((status = 200, description = "The routes as an HTML page", body = String, content_type = "text/html"))
)]
pub async fn docs_page() -> HttpResponse {
    static PAGE: OnceLock<String> = OnceLock::new();
    let page = PAGE.get_or_init(|| docs_page::render(&ApiDoc::openapi()));
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(page.as_str())
}

#[cfg(test)]
mod tests {
    use utoipa::OpenApi;

    use super::ApiDoc;
    use crate::auth::rules::{MIN_PASSWORD_LEN, USERNAME_MAX, USERNAME_MIN};
    use crate::canned::SHORTCUT_MAX;
    use crate::team::MAX_LABEL_NAME;

    /// The schema attributes take only literals: these are the forms' own limits.
    #[test]
    fn the_documented_limits_are_the_forms_own() {
        let document = serde_json::to_value(ApiDoc::openapi()).expect("serialises");
        let schemas = &document["components"]["schemas"];
        let label_name = &schemas["LabelBody"]["properties"]["name"]["maxLength"];
        assert_eq!(*label_name, MAX_LABEL_NAME);
        let shortcut = &schemas["CannedForm"]["properties"]["shortcut"]["pattern"];
        assert_eq!(*shortcut, format!(r"^\S{{1,{SHORTCUT_MAX}}}$"));
        let username = format!("^[A-Za-z0-9._-]{{{USERNAME_MIN},{USERNAME_MAX}}}$");
        for form in ["RegisterRequest", "AgentForm"] {
            let fields = &schemas[form]["properties"];
            assert_eq!(fields["username"]["pattern"], username, "{form}");
            assert_eq!(fields["password"]["minLength"], MIN_PASSWORD_LEN, "{form}");
        }
    }
}
