//! The main API under `/api`, one module per area.
//!
//! - `health`: liveness (`HEAD`) and database reachability (`GET`)
//! - `conversations`: the conversation list, history and mark-as-read
//! - `events`: WebSocket and SSE pushes
//! - `messages`: sending, the user's config, media files
//! - `contacts`: add, update, import, delete contacts
//! - `customer_path`: the customer a request names, under their conversation's key now
//! - `sender`: templates list and the template sender (single and bulk)
//! - `templates`: template creation, checked by the form's rules
//! - `recipients`: recipient files for bulk sends, and the sample file
//! - `replies`: automated replies and their flow steps
//! - `push`: Web Push key, subscribe and unsubscribe
//! - `team`: status, assignment, private notes, presence, tab counts
//! - `canned`: canned replies (read by all members, written by the owner)
//! - `labels`: the business's labels and the labels a conversation carries
//! - `search`: full-history search of messages, notes and contacts
//! - `reports`: the owner's overview report, as JSON or CSV
//! - `media`: share links that open a media file without a login
//! - `described`: schema-only types for bodies read part by part, named by the document
//! - `openapi`: the OpenAPI document of `/api` and `/identity`, and `docs_page`, its page for people
//! - `unrouted`: 405 for a known path asked with another method, else 404
//! - `metrics`: `/metrics` for Prometheus (mounted beside `/api`, not under it)

pub mod canned;
pub mod contacts;
pub mod conversations;
pub mod customer_path;
pub mod described;
pub mod docs_page;
pub mod events;
pub mod health;
pub mod labels;
pub mod media;
pub mod messages;
pub mod metrics;
pub mod openapi;
pub mod openapi_links;
pub mod push;
pub mod recipients;
pub mod replies;
pub mod reports;
pub mod search;
pub mod sender;
pub mod team;
pub mod templates;
pub mod unrouted;
pub mod ws;

use actix_web::web;

use crate::auth::{handlers, profile};

/// Routes mounted under `/api`.
pub fn api_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/openapi.json", web::get().to(openapi::openapi_json))
        .route("/docs", web::get().to(openapi::docs_page))
        .route("/health", web::head().to(health::alive))
        .route("/health", web::get().to(health::report))
        .route(
            "/auth/protected-route",
            web::get().to(handlers::protected_route),
        )
        .route("/users/profile", web::get().to(profile::get_user))
        .route("/users/profile", web::patch().to(profile::update_user))
        .route(
            "/users/toggle-language",
            web::patch().to(profile::toggle_language),
        )
        .route("/users", web::get().to(conversations::list_conversations))
        .route("/users/counts", web::get().to(team::tab_counts))
        .route("/team/members", web::get().to(team::list_members))
        .route("/search", web::get().to(search::search))
        .route(
            "/conversation/{phone}/status",
            web::patch().to(team::set_status),
        )
        .route(
            "/conversation/{phone}/assignment",
            web::patch().to(team::set_assignment),
        )
        .route(
            "/conversation/{phone}/notes",
            web::post().to(team::add_note),
        )
        .route(
            "/conversation/{phone}/presence",
            web::post().to(team::post_presence),
        )
        .route(
            "/conversation/{phone}/labels",
            web::put().to(labels::set_conversation_labels),
        )
        .route("/labels", web::get().to(labels::list_labels))
        .route("/labels", web::post().to(labels::create_label))
        .route("/labels/{id}", web::patch().to(labels::update_label))
        .route("/labels/{id}", web::delete().to(labels::delete_label))
        .route(
            "/conversation/{phone}",
            web::get().to(conversations::conversation_history),
        )
        .route(
            "/conversation/{phone}/mark-as-read",
            web::post().to(conversations::mark_as_read),
        )
        .route("/ws", web::to(ws::not_upgraded))
        .route(
            "/events/stream/notifications/all",
            web::get().to(events::notifications_stream),
        )
        .route(
            "/events/stream/{channel}",
            web::get().to(events::channel_stream),
        )
        .route("/events/close", web::post().to(events::close_stream))
        .route("/send-message", web::post().to(messages::send_message))
        .route(
            "/conversation/{phone}/messages/{message_id}/reaction",
            web::post().to(messages::react_to_message),
        )
        .route("/templates", web::get().to(sender::list_templates))
        .route(
            "/send-template",
            web::post().to(sender::send_template_message),
        )
        .route("/send-template/jobs/{id}", web::get().to(sender::get_job))
        .route("/push/public-key", web::get().to(push::get_public_key))
        .route(
            "/subscribe-to-notifications",
            web::post().to(push::subscribe_to_notifications),
        )
        .route(
            "/unsubscribe-from-notifications",
            web::post().to(push::unsubscribe_from_notifications),
        )
        .route("/config", web::get().to(messages::get_config))
        .route("/media/{id}", web::get().to(messages::get_media))
        .route("/media/{id}", web::head().to(messages::get_media))
        .route("/media/{id}/share", web::post().to(media::share_media))
        .route("/contacts/add", web::post().to(contacts::add_contact))
        .route("/users/update", web::post().to(contacts::update_contact))
        .route(
            "/contacts/import",
            web::post().to(contacts::import_contacts),
        )
        .route(
            "/contacts/delete/{phone}",
            web::delete().to(contacts::delete_contact),
        )
        .route(
            "/create-template",
            web::post().to(templates::create_template),
        )
        .route(
            "/templates/{name}",
            web::delete().to(templates::delete_template),
        )
        .route(
            "/recipients/parse",
            web::post().to(recipients::parse_recipients),
        )
        .route(
            "/recipients/sample",
            web::get().to(recipients::recipients_sample),
        )
        .route("/automated-replies/", web::get().to(replies::list_replies))
        .route("/automated-replies", web::get().to(replies::list_replies))
        .route("/automated-replies/", web::post().to(replies::create_reply))
        .route("/automated-replies", web::post().to(replies::create_reply))
        .route(
            "/automated-replies/{id}",
            web::patch().to(replies::update_reply),
        )
        .route(
            "/automated-replies/{id}",
            web::delete().to(replies::delete_reply),
        )
        .route(
            "/automated-replies/{id}/flows",
            web::get().to(replies::list_flow_steps),
        )
        .route(
            "/canned-replies",
            web::get().to(canned::list_canned_replies),
        )
        .route(
            "/canned-replies",
            web::post().to(canned::create_canned_reply),
        )
        .route(
            "/canned-replies/{id}",
            web::patch().to(canned::update_canned_reply),
        )
        .route(
            "/canned-replies/{id}",
            web::delete().to(canned::delete_canned_reply),
        )
        .route("/reports/overview", web::get().to(reports::get_overview));
}
