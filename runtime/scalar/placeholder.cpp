// placeholder: replaced by the scalar types
