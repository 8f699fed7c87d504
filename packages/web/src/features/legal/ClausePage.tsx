import { legalMessages } from '@hublink/contract';
import { Link } from 'react-router';
import { withLinks } from '../../components/withLinks';
import { LegalDocument, type LegalSection } from './LegalDocument';

const INTRO = [
  legalMessages.clauseIntro1,
  legalMessages.clauseIntro2,
];

const SECTIONS: LegalSection[] = [
  {
    title: legalMessages.clauseSection1,
    clauses: [
      legalMessages.clauseSection1Item1,
      legalMessages.clauseSection1Item2,
      legalMessages.clauseSection1Item3,
    ],
  },
  {
    title: legalMessages.clauseSection2,
    clauses: [
      legalMessages.clauseSection2Item1,
      legalMessages.clauseSection2Item2,
      legalMessages.clauseSection2Item3,
      legalMessages.clauseSection2Item4,
      legalMessages.clauseSection2Item5,
    ],
  },
  {
    title: legalMessages.clauseSection3,
    clauses: [
      legalMessages.clauseSection3Item1,
      legalMessages.clauseSection3Item2,
      legalMessages.clauseSection3Item3,
    ],
  },
  {
    title: legalMessages.clauseSection4,
    clauses: [
      legalMessages.clauseSection4Item1,
      legalMessages.clauseSection4Item2,
      legalMessages.clauseSection4Item3,
      legalMessages.clauseSection4Item4,
    ],
  },
  {
    title: legalMessages.clauseSection5,
    clauses: [
      legalMessages.clauseSection5Item1,
      legalMessages.clauseSection5Item2,
      legalMessages.clauseSection5Item3,
      legalMessages.clauseSection5Item4,
      legalMessages.clauseSection5Item5,
    ],
  },
  {
    title: legalMessages.clauseSection6,
    clauses: [
      legalMessages.clauseSection6Item1,
      legalMessages.clauseSection6Item2,
      legalMessages.clauseSection6Item3,
      legalMessages.clauseSection6Item4,
    ],
  },
  {
    title: legalMessages.clauseSection7,
    clauses: [
      legalMessages.clauseSection7Item1,
      legalMessages.clauseSection7Item2,
      legalMessages.clauseSection7Item3,
    ],
  },
  {
    title: legalMessages.clauseSection8,
    clauses: [
      legalMessages.clauseSection8Item1,
      legalMessages.clauseSection8Item2,
      legalMessages.clauseSection8Item3,
      legalMessages.clauseSection8Item4,
    ],
  },
  {
    title: legalMessages.clauseSection9,
    clauses: [
      legalMessages.clauseSection9Item1,
      legalMessages.clauseSection9Item2,
      legalMessages.clauseSection9Item3,
    ],
  },
  {
    title: legalMessages.clauseSection10,
    clauses: [
      legalMessages.clauseSection10Item1,
      legalMessages.clauseSection10Item2,
      legalMessages.clauseSection10Item3,
    ],
  },
  {
    title: legalMessages.clauseSection11,
    clauses: [
      legalMessages.clauseSection11Item1,
      withLinks(legalMessages.clauseSection11Item2, { privacy: <Link to="/privacy">{legalMessages.legalPrivacyLink}</Link> }),
    ],
  },
  {
    title: legalMessages.clauseSection12,
    clauses: [
      legalMessages.clauseSection12Item1,
      legalMessages.clauseSection12Item2,
    ],
  },
  {
    title: legalMessages.clauseSection13,
    clauses: [
      legalMessages.clauseSection13Item1,
      legalMessages.clauseSection13Item2,
      legalMessages.clauseSection13Item3,
    ],
  },
];

/** /clause: the terms of service (spec 1 §2.12, §9). */
export default function ClausePage() {
  return <LegalDocument title={legalMessages.clauseTitle} intro={INTRO} sections={SECTIONS} />;
}
