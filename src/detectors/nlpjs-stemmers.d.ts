// nlp.js's language packages ship no type declarations; memgate uses only their stemmers.
declare module "@nlpjs/lang-de" {
  export class StemmerDe {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-fr" {
  export class StemmerFr {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-es" {
  export class StemmerEs {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-it" {
  export class StemmerIt {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-pt" {
  export class StemmerPt {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-nl" {
  export class StemmerNl {
    stemWord(word: string): string;
  }
}
declare module "@nlpjs/lang-pl" {
  export class StemmerPl {
    stemWord(word: string): string;
  }
}
