// Included inside a namespace by test/emit/includes.cu.
inline int nested_helper() { return 1; }
