"""The templates' sentences (languages.template_gettext), which stand in for Flask-Babel's: the
same translation, markup escaping and % filling as Jinja's new-style gettext."""

from flask_babel import force_locale


def test_template_sentences_translate_escape_and_fill(app):
    render = app.jinja_env.from_string
    with app.test_request_context(), force_locale("fr"):
        assert render("{{ _('Pay') }}").render() != "Pay"  # the French catalog, not the English text
        filled = render("{{ _('%(name)s pays', name=who) }}").render(who="<b>Ann</b>")
        assert "&lt;b&gt;Ann&lt;/b&gt;" in filled and "<b>" not in filled
        assert render("{{ _('10%% fee') }}").render() == "10% fee"  # %% is a % even with nothing to fill
        assert render("{{ ngettext('%(num)s house', '%(num)s houses', 2) }}").render() == "2 maisons"  # the catalog's plural
