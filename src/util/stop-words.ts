/**
 * English function words removed from the full-text index (and, by the same tokenizer, from
 * queries). LanceDB's built-in list for `language: 'English'` is a multilingual list applied after
 * stemming: it silently dropped `dog`, `cat`, `city`, `care`, `want`, `come`, `face`, `end` and
 * more (zero hits on main). This list is explicit and small: pronouns, articles, auxiliaries,
 * common prepositions and conjunctions, question words. Words that can carry meaning in a memory
 * (`no`, `not`, `before`, `after`, `more`, `own`, quantities) stay searchable.
 * Stop words are matched after stemming, so stemmed forms (`thi`, `wa`, `doe`, `ha`) are listed too.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze([
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'because', 'as', 'so', 'than', 'then',
  'i', 'me', 'my', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', 'you', 'your', 'yours', 'yourself', 'yourselves',
  'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself',
  'they', 'them', 'their', 'theirs', 'themselves',
  'this', 'thi', 'that', 'these', 'those', 'there', 'here',
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how',
  'am', 'is', 'are', 'was', 'wa', 'were', 'be', 'been', 'being', 'have', 'has', 'ha', 'had', 'having',
  'do', 'does', 'doe', 'did', 'doing', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must',
  'of', 'at', 'by', 'for', 'with', 'about', 'to', 'from', 'in', 'into', 'on', 'onto', 'upon',
  's', 't', 'd', 'll', 'm', 're', 've',
]);
