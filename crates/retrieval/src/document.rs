//! What the retriever indexes: a [`Document`] with an id, a category, the text of each field and
//! the text embedded for it. A block spec is one (`From<&BlockSpec>`); templates and anything
//! else the design engine ranks become one the same way.

use planwright_catalog::BlockSpec;

use crate::bm25::FieldTerms;
use crate::tokenize::tokenize;

/// One thing to rank, as the index sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// What a hit names (`excel.read_data`, a template's id).
    pub id: String,
    /// The group "top K per category" counts in.
    pub category: String,
    /// The texts of each field, in [`crate::Field::ALL`] order: id, title, tags, ports (a
    /// block's inputs and outputs, a template's imports and exports), description. Both
    /// languages together: a query in either matches its own half, and words the halves share
    /// (Excel, CSV, PDF) count in both.
    pub fields: [Vec<String>; 5],
    /// What is embedded for it: what it is for and what goes in and out.
    pub embedding_text: String,
}

impl Document {
    /// The terms of each field. The tokenizer splits on `.` and `_`: `excel.read_data` gives
    /// excel, read, data.
    pub(crate) fn field_terms(&self) -> FieldTerms {
        self.fields.clone().map(|texts| texts.iter().flat_map(|t| tokenize(t)).map(|t| t.term).collect())
    }
}

impl From<&BlockSpec> for Document {
    fn from(spec: &BlockSpec) -> Document {
        let tags: Vec<String> = spec.tags.en.iter().chain(&spec.tags.ja).cloned().collect();
        let ports: Vec<String> = spec.inputs.keys().chain(spec.outputs.keys()).cloned().collect();
        let embedding_text = format!(
            "{}\n{} / {}\n{}\n{}\ntags: {}\ninputs: {}\noutputs: {}",
            spec.id,
            spec.title.en,
            spec.title.ja,
            spec.description.en,
            spec.description.ja,
            tags.join(", "),
            spec.inputs.keys().cloned().collect::<Vec<_>>().join(", "),
            spec.outputs.keys().cloned().collect::<Vec<_>>().join(", "),
        );
        Document {
            id: spec.id.clone(),
            category: spec.category.clone(),
            fields: [
                vec![spec.id.clone()],
                vec![spec.title.en.clone(), spec.title.ja.clone()],
                tags,
                ports,
                vec![spec.description.en.clone(), spec.description.ja.clone()],
            ],
            embedding_text,
        }
    }
}
