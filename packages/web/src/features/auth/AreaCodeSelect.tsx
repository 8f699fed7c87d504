import { LIMITS } from '@hublink/contract';
import { Select, type SelectProps } from 'antd';

/** Country and region dial codes offered for phones; 86 first (spec 1 §9: default 86). */
export const AREA_CODES: { code: string; name: string }[] = [
  { code: LIMITS.defaultAreaCode, name: '中国大陆' },
  { code: '852', name: '中国香港' },
  { code: '853', name: '中国澳门' },
  { code: '886', name: '中国台湾' },
  { code: '1', name: '美国/加拿大' },
  { code: '44', name: '英国' },
  { code: '49', name: '德国' },
  { code: '33', name: '法国' },
  { code: '7', name: '俄罗斯' },
  { code: '81', name: '日本' },
  { code: '82', name: '韩国' },
  { code: '65', name: '新加坡' },
  { code: '60', name: '马来西亚' },
  { code: '66', name: '泰国' },
  { code: '84', name: '越南' },
  { code: '62', name: '印度尼西亚' },
  { code: '63', name: '菲律宾' },
  { code: '91', name: '印度' },
  { code: '971', name: '阿联酋' },
  { code: '61', name: '澳大利亚' },
];

const OPTIONS = AREA_CODES.map((a) => ({ value: a.code, label: `+${a.code}`, title: a.name, search: `${a.code} ${a.name}` }));
const SELECT_WIDTH = 110;

/** The dial-code select in front of a phone input (value is the code without '+', e.g. '86'). */
export function AreaCodeSelect(props: Omit<SelectProps<string>, 'options'>) {
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'search' }}
      popupMatchSelectWidth={false}
      style={{ width: SELECT_WIDTH }}
      aria-label="国家/地区代码"
      optionRender={(o) => `${o.data.title} +${o.data.value}`}
      {...props}
      options={OPTIONS}
    />
  );
}
