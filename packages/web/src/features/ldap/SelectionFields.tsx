import { ldapConfigBody, ldapDefaultAttributes, ldapMessages, LIMITS } from '@hublink/contract';
import { Col, Form, Input, Row, Switch } from 'antd';
import { rulesOf } from '../../api/rules';

const rules = (field: string) => rulesOf(ldapConfigBody, field);

/**
 * The user selection and attribute mapping of the LDAP form (issue 33): a group and a filter (both
 * optional, both narrow), the attribute of the member name (empty: the type's default, shown as the
 * placeholder) with its lower-case switch, and the note, phone and e-mail attributes.
 */
export function SelectionFields({ type }: { type: number | undefined }) {
  const defaults = ldapDefaultAttributes(type ?? 1);
  const attribute = (name: string, label: string, placeholder: string) => (
    <Col xs={24} sm={12} md={8}>
      <Form.Item name={name} label={label} rules={rules(name)}>
        <Input placeholder={placeholder} maxLength={LIMITS.ldapAttributeMax} autoComplete="off" />
      </Form.Item>
    </Col>
  );
  return (
    <>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="user_group" label={ldapMessages.ldapUserGroup} rules={rules('user_group')} extra={ldapMessages.ldapUserGroupHint}>
            <Input placeholder={ldapMessages.ldapUserGroupPlaceholder} maxLength={LIMITS.ldapGroupDnMax} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="user_filter" label={ldapMessages.ldapUserFilter} rules={rules('user_filter')} extra={ldapMessages.ldapUserFilterHint}>
            <Input placeholder={ldapMessages.ldapUserFilterPlaceholder} maxLength={LIMITS.ldapFilterMax} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={24}>
        <Col xs={24} md={16}>
          <Form.Item name="name_attr" label={ldapMessages.ldapNameAttr} rules={rules('name_attr')} extra={ldapMessages.ldapNameAttrHint}>
            <Input placeholder={defaults.name_attr} maxLength={LIMITS.ldapAttributeMax} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="name_lower" label={ldapMessages.ldapNameLower} valuePropName="checked">
            <Switch aria-label={ldapMessages.ldapNameLower} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={24}>
        {attribute('note_attr', ldapMessages.ldapNoteAttr, ldapMessages.ldapAttrNone)}
        {attribute('phone_attr', ldapMessages.ldapPhoneAttr, ldapMessages.ldapAttrNone)}
        {attribute('email_attr', ldapMessages.ldapEmailAttr, ldapMessages.ldapAttrNone)}
      </Row>
    </>
  );
}
