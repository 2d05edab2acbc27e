//! Property tests: the parsers that read what others send (Meta's webhooks, recipient files,
//! customer keys, template definitions) meet random and mutated input and never panic. Case
//! counts are fixed so the whole set stays within seconds on a small machine.

mod cloud;
mod customer;
mod recipients;
mod strategies;
mod template_rules;
